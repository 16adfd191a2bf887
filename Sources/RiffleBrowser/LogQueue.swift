import Foundation
import RiffleKit
import RiffleReading
import Synchronization

/// The reading log's work, one job after another in the order asked (a mark is never overtaken by
/// an older record), started only once the first frame is painted. The first failure is told once
/// as a toast; the browser goes on without seen state.
///
/// A job that finds the log locked by another program (another riffle filing a dump's items or
/// trimming the log, a backup, a `sqlite3` shell: `ReadingLog.Failure.isBusy`) is not dropped: it
/// is tried again, `retryDelays` apart, until the lock is free, the jobs after it waiting their turn,
/// and the toast says the marks are kept. `settle(within:)` lets the browser's end wait for them.
final class LogQueue: Sendable {
    typealias Job = @Sendable (ReadingLog) async throws(ReadingLog.Failure) -> Void

    let log: ReadingLog
    private let state = Mutex<State>(State())
    /// Where the first failure is told.
    let onFailure: @Sendable (String) -> Void
    /// The pauses between tries of a job that found the log locked; the last one repeats.
    let retryDelays: [Duration]

    private struct State {
        var started = false
        var waiting: [(job: Job, reportingFailure: Bool)] = []
        var tail: Task<Void, Never>?
        var failed = false
        /// Whether the lock was told about (once a run).
        var toldLocked = false
        /// Whether a job is waiting for another program's lock now.
        var locked = false
    }

    init(log: ReadingLog, retryDelays: [Duration] = [.milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1)],
         onFailure: @escaping @Sendable (String) -> Void) {
        self.log = log
        self.retryDelays = retryDelays.isEmpty ? [.seconds(1)] : retryDelays
        self.onFailure = onFailure
    }

    /// Runs the jobs asked for so far, and from now on each as it is asked.
    func start() {
        let waiting = state.withLock { state in
            state.started = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for (job, reporting) in waiting { chain(job, reportingFailure: reporting) }
    }

    /// Queues `job`; with `reportingFailure`, a failure of it is the one toast.
    func enqueue(reportingFailure: Bool = true, _ job: @escaping Job) {
        let started = state.withLock { state in
            if !state.started { state.waiting.append((job, reportingFailure)) }
            return state.started
        }
        if started { chain(job, reportingFailure: reportingFailure) }
    }

    /// Whether a job is waiting for a lock another program holds.
    var isWaitingForLock: Bool { state.withLock { $0.locked } }

    /// Waits, on the calling thread (never one of the concurrency pool's), until every job asked for
    /// so far has run or `timeout` has passed; true when they all ran.
    func settle(within timeout: Duration) -> Bool {
        guard let tail = state.withLock({ $0.tail }) else { return true }
        let done = DispatchSemaphore(value: 0)
        Task {
            await tail.value
            done.signal()
        }
        let (seconds, attoseconds) = timeout.components
        return done.wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18) == .success
    }

    private func chain(_ job: @escaping Job, reportingFailure: Bool) {
        let log = log, delays = retryDelays
        state.withLock { state in
            let previous = state.tail
            state.tail = Task {
                await previous?.value
                var tries = 0
                while true {
                    do throws(ReadingLog.Failure) {
                        try await job(log)
                        self.state.withLock { $0.locked = false }
                        return
                    } catch where error.isBusy {
                        let tell = self.state.withLock { state in
                            state.locked = true
                            defer { state.toldLocked = true }
                            return !state.toldLocked
                        }
                        if tell {
                            self.onFailure("reading log locked by another program: marks are kept and saved when it is free")
                        }
                        try? await Task.sleep(for: delays[min(tries, delays.count - 1)])
                        tries += 1
                    } catch {
                        self.state.withLock { $0.locked = false }
                        guard reportingFailure else { return }
                        let first = self.state.withLock { state in defer { state.failed = true }; return !state.failed }
                        if first { self.onFailure("reading log: \(error)") }
                        return
                    }
                }
            }
        }
    }
}
