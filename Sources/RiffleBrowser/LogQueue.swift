import RiffleKit
import RiffleReading
import Synchronization

/// The reading log's work, one job after another in the order asked (a mark is never overtaken by
/// an older record), started only once the first frame is painted. The first failure is told once
/// as a toast; the browser goes on without seen state.
final class LogQueue: Sendable {
    typealias Job = @Sendable (ReadingLog) async throws(ReadingLog.Failure) -> Void

    let log: ReadingLog
    private let state = Mutex<(started: Bool, waiting: [Job], tail: Task<Void, Never>?, failed: Bool)>((false, [], nil, false))
    /// Where the first failure is told.
    let onFailure: @Sendable (String) -> Void

    init(log: ReadingLog, onFailure: @escaping @Sendable (String) -> Void) {
        self.log = log
        self.onFailure = onFailure
    }

    /// Runs the jobs asked for so far, and from now on each as it is asked.
    func start() {
        let waiting = state.withLock { state in
            state.started = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for job in waiting { chain(job, reportingFailure: true) }
    }

    /// Queues `job`; with `reportingFailure`, a failure of it is the one toast.
    func enqueue(reportingFailure: Bool = true, _ job: @escaping Job) {
        let started = state.withLock { state in
            if !state.started { state.waiting.append(job) }
            return state.started
        }
        if started { chain(job, reportingFailure: reportingFailure) }
    }

    private func chain(_ job: @escaping Job, reportingFailure: Bool) {
        let log = log
        state.withLock { state in
            let previous = state.tail
            state.tail = Task {
                await previous?.value
                do throws(ReadingLog.Failure) {
                    try await job(log)
                } catch {
                    guard reportingFailure else { return }
                    let first = self.state.withLock { state in defer { state.failed = true }; return !state.failed }
                    if first { self.onFailure("reading log: \(error)") }
                }
            }
        }
    }
}
