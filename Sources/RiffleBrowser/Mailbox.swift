import RiffleTUI
import Synchronization

/// Results of finished effects, waiting for the run loop to take them.
final class Mailbox: Sendable {
    private let actions = Mutex<[Action]>([])

    func post(_ action: Action) { actions.withLock { $0.append(action) } }

    /// Every action posted since the last call, oldest first.
    func drain() -> [Action] { actions.withLock { queue in defer { queue.removeAll() }; return queue } }
}
