import Dispatch
import Foundation
import Synchronization

/// Standard output for `riffle dump`, written beside the loads: the command hands each page's bytes
/// over in order and goes on asking for pages while a slow reader (a pipe into `less`, a full disk
/// under a redirection) takes them. At most `limit` pages wait to be written; past that the command
/// waits for the writer, so a stalled reader never makes riffle hold a whole feed in memory.
final class DumpWriter: Sendable {
    private struct State {
        var pending = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = DispatchQueue(label: "riffle.dump.output")
    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int = 4) { self.limit = max(1, limit) }

    /// Queues `bytes` after everything queued before; waits first while `limit` pages are queued.
    func write(_ bytes: [UInt8]) async {
        guard !bytes.isEmpty else { return }
        while true {
            let queued = state.withLock { state -> Bool in
                guard state.pending >= limit else {
                    state.pending += 1
                    return true
                }
                return false
            }
            if queued { break }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.pending >= limit else { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        queue.async { [self] in
            Self.writeAll(bytes)
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pending -= 1
                defer { state.waiting.removeAll() }
                return state.waiting
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// Returns once everything queued is written.
    func finish() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    /// Writes to standard output; when that fails (a full disk under a redirection, a closed pipe)
    /// riffle stops with one line saying why, rather than trapping in Foundation.
    static func writeAll(_ text: [UInt8]) {
        var bytes = text[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                guard errno == EINTR else { StandardError.fail("cannot write the output: \(String(cString: strerror(errno)))") }
                continue
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
