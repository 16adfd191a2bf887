import Dispatch
import Testing

/// Runs each case of a test (or of every test in a suite) on a thread of its own, off the cooperative
/// pool: two threads on a 2-core machine, shared by every test's tasks.
///
/// For tests that block, which the pool cannot absorb: a synchronous test runs whole on the thread it
/// is given, waits (a socket read, a semaphore, a poll) included, and an async one runs its own code
/// and the actors it calls (`ReadingLog`, `ResponseCache`, whose SQLite work is synchronous) there too.
/// Without it such a test holds a pool thread for as long as it runs, and every other test awaiting
/// the pool stalls, its timed waits running out.
///
/// ```swift
/// @Suite(.offThePool) struct BlockingTests { @Test func waitsForAChild() { /* … */ } }
/// ```
package struct OffThePool: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(for test: Test, testCase: Test.Case?,
                              performing function: @Sendable () async throws -> Void) async throws {
        // Each case on an executor of its own: the cases of one test may run in parallel.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadExecutor(label: "riffle-test \(test.name)")) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// Each case of the test, or of every test in the suite, on a thread of its own (`OffThePool`).
    package static var offThePool: Self { Self() }
}

/// A task executor whose jobs run one at a time on a serial dispatch queue: a thread of its own, which
/// libdispatch adds beside the cooperative pool rather than taking from it.
package final class ThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue

    package init(label: String) { queue = DispatchQueue(label: label) }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
