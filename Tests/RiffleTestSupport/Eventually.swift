import Foundation

/// Polls `condition` every 5 ms until it holds; false after `timeout`, so a broken ordering is
/// reported rather than hung. It sleeps between polls: a `Task.yield()` loop keeps a cooperative thread
/// busy, and on two cores that starves the very tasks it waits for.
package func eventually(timeout: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

extension DispatchSemaphore {
    /// `wait()` for a server handler held until the test lets it go, bounded: a test that fails before
    /// it signals leaves no thread waiting for ever.
    package func waitForTest() {
        _ = wait(timeout: .now() + .seconds(60))
    }
}
