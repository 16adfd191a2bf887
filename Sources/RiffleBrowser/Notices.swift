import Synchronization

/// Messages from outside the loop (a client plugin saying it will retry, say), shown as toasts: post
/// from any thread; the loop takes them between key presses.
///
/// ```swift
/// let notices = Notices()
/// notices.post("retrying in 4 s (HTTP 429 Too Many Requests)")
/// ```
package final class Notices: Sendable {
    private let queue = Mutex<[String]>([])

    package init() {}

    /// Queues `message` for the next frame.
    package func post(_ message: String) { queue.withLock { $0.append(message) } }

    /// Every message posted since the last call, oldest first.
    func drain() -> [String] { queue.withLock { queue in defer { queue.removeAll() }; return queue } }
}
