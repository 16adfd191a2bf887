import Synchronization

/// PageLoader's fetch slots: at most `limit` transfers at once, handed on in the order asked.
///
/// A lock rather than actor state: a finished transfer hands its slot to the next in line on the
/// thread it finished on. The next in line is either a waiting task, resumed, or a start action a
/// transport queued (`SlotScheduledTransport`), run right there, so on loopback the next page's
/// request leaves from the thread that read the last answer, with no thread to wake in between.
final class FetchSlots: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case action(@Sendable () -> Void)
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        var requests = 0
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Requests started or queued so far (for tests and the benchmark).
    var requestCount: Int { state.withLock { $0.requests } }

    /// Waits for a slot; counts the request it is for.
    func acquire() async {
        let granted = state.withLock { state -> Bool in
            state.requests += 1
            guard state.running < limit else { return false }
            state.running += 1
            return true
        }
        if granted { return }
        await withCheckedContinuation { continuation in
            // A slot freed between the check above and now is handed over here rather than lost.
            let handOver = state.withLock { state -> Bool in
                if state.running < limit {
                    state.running += 1
                    return true
                }
                state.waiting.append(.task(continuation))
                return false
            }
            if handOver { continuation.resume() }
        }
    }

    /// Runs `start` holding a slot: now, on this thread, when one is free, else on the thread that
    /// frees one. `start` must not block, and whoever it starts must call `release()` once.
    func schedule(_ start: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            state.requests += 1
            guard state.running < limit else {
                state.waiting.append(.action(start))
                return false
            }
            state.running += 1
            return true
        }
        if now { start() }
    }

    /// Frees a slot: the next in line gets it directly. True when that was a start action, run here.
    @discardableResult
    func release() -> Bool {
        let next = state.withLock { state -> Waiter? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        switch next {
        case .task(let continuation)?: continuation.resume(); return false
        case .action(let start)?: start(); return true
        case nil: return false
        }
    }
}
