import Foundation
import Testing
@testable import riffle

@Suite("waitForCommand: the main thread waits for an async command")
struct MainThreadTests {
    /// Calls `waitForCommand` from a thread of its own, as `main.swift` does from the main thread,
    /// so the wait never holds a thread of the concurrency pool.
    private func onOwnThread(_ body: @escaping @Sendable () -> Result<Int32, Arguments.UsageError>) async -> Result<Int32, Arguments.UsageError> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test func givesTheCommandsStatusOnceItEnds() async throws {
        // Given a command that suspends before it ends with status 3
        let result = await onOwnThread {
            Result { () throws(Arguments.UsageError) in
                try waitForCommand { () async throws(Arguments.UsageError) in
                    await Task.yield()
                    try? await Task.sleep(for: .milliseconds(20))
                    return 3
                }
            }
        }
        // Then the waiting thread gets 3
        #expect(try result.get() == 3)
    }

    @Test func passesTheCommandsUsageErrorOn() async {
        // Given a command that fails with a usage error after suspending
        let result = await onOwnThread {
            Result { () throws(Arguments.UsageError) in
                try waitForCommand { () async throws(Arguments.UsageError) in
                    await Task.yield()
                    throw Arguments.UsageError("no feed given")
                }
            }
        }
        // Then the waiting thread gets that error
        #expect(throws: Arguments.UsageError("no feed given")) { try result.get() }
    }

    @Test func runsTheCommandOffTheWaitingThread() async throws {
        // Given the waiting thread's identity
        let result = await onOwnThread {
            let waiting = pthread_self()
            return Result { () throws(Arguments.UsageError) in
                try waitForCommand { () async throws(Arguments.UsageError) in
                    // Then the command runs on another thread (the waiting one is blocked)
                    pthread_equal(pthread_self(), waiting) == 0 ? 1 : 0
                }
            }
        }
        #expect(try result.get() == 1)
    }
}
