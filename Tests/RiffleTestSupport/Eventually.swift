import Foundation

/// How long a test waits for what should happen at once (a request reaching a server, a task joining
/// another): long, because it only bounds a failure. Every test runs in one process whose concurrency
/// pool has two threads on a 2-core machine, and while the suite is at its busiest a task that was
/// just started waits behind hundreds of other tests' jobs: CI saw 35 s.
package let patience: Duration = .seconds(120)
/// `patience` in seconds, for the waits that take a `TimeInterval`.
package let patienceInterval = TimeInterval(patience.components.seconds)

/// Polls `condition` every 5 ms until it holds; false after `timeout`, so a broken ordering is
/// reported rather than hung. It sleeps between polls: a `Task.yield()` loop keeps a cooperative thread
/// busy, and on two cores that starves the very tasks it waits for.
package func eventually(timeout: Duration = patience, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

extension DispatchSemaphore {
    /// `wait()` for a server handler held until the test lets it go, bounded (by `patience`): a test
    /// that fails before it signals leaves no thread waiting for ever.
    package func waitForTest() {
        _ = wait(timeout: .now() + patienceInterval)
    }
}
