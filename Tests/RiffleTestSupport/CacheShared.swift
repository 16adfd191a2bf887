import Synchronization

/// A value behind a lock that closures can share (a `Mutex` itself cannot be captured).
package final class CacheShared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    package init(_ value: Value) { mutex = Mutex(value) }
    package func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
