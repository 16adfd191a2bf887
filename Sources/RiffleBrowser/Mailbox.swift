import RiffleTUI
import Synchronization

/// Results of finished effects, waiting for the run loop to take them. Each is tagged with the feed
/// it is about (the loop's count of feeds opened), so a late answer about a feed no longer shown is
/// dropped; nil tags what is about no feed (a search, a notice).
final class Mailbox: Sendable {
    private let actions = Mutex<[(feed: Int?, action: Action)]>([])

    func post(_ action: Action, feed: Int? = nil) { actions.withLock { $0.append((feed, action)) } }

    /// Every action posted since the last call about feed `current` or about none, oldest first.
    func drain(current: Int) -> [Action] {
        actions.withLock { queue in
            defer { queue.removeAll() }
            return queue.filter { $0.feed == nil || $0.feed == current }.map(\.action)
        }
    }
}
