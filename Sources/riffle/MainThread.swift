import Dispatch
import Synchronization

/// Runs an async command to its end on the concurrency pool while the calling thread waits, and
/// gives back its exit status or its usage error.
///
/// `main.swift` calls commands through this instead of `await`ing them: one `await` there makes the
/// program's `main` async, and the concurrency runtime then gives the main thread up with
/// `pthread_exit` (`dispatch_main`), whose forced unwind walks the binary's unwind tables, which then
/// stay resident (DECISIONS.md, "riffle's main thread waits for its command"). Nothing in riffle runs
/// on the main actor, so no work waits for the main thread. It blocks the caller: call it only from
/// a thread outside the concurrency pool (the main thread).
func waitForCommand(_ command: @escaping @Sendable () async throws(Arguments.UsageError) -> Int32) throws(Arguments.UsageError) -> Int32 {
    let outcome = CommandOutcome()
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        do throws(Arguments.UsageError) {
            outcome.set(.success(try await command()))
        } catch {
            outcome.set(.failure(error))
        }
        finished.signal()
    }
    finished.wait()
    return try outcome.get().get()
}

/// What a command run by `waitForCommand` ended with, handed from its task to the waiting thread.
private final class CommandOutcome: Sendable {
    private let result = Mutex<Result<Int32, Arguments.UsageError>?>(nil)

    func set(_ value: Result<Int32, Arguments.UsageError>) { result.withLock { $0 = value } }

    /// Read only after the command's task signalled, so it is set.
    func get() -> Result<Int32, Arguments.UsageError> {
        guard let value = result.withLock({ $0 }) else { preconditionFailure("a command's outcome read before it ended") }
        return value
    }
}
