import Synchronization

/// A number a test's server handler reads and the test sets (how many items have arrived, say):
/// shared between the handler's threads and the test.
final class SharedCount: Sendable {
    let value = Mutex(0)

    func set(_ count: Int) { value.withLock { $0 = count } }
}
