import Synchronization

/// PageLoader's fetch slots: at most `limit` transfers at once, handed on in the order asked.
///
/// A lock rather than actor state: a finished transfer hands its slot to the next page on the thread
/// it finished on, with no hop onto the loader's actor in between (each hop can be a thread wake-up,
/// and at concurrency 1 those sit between one page's answer and the next page's request).
final class FetchSlots: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var requests = 0
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Requests started so far (for tests and the benchmark).
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
                state.waiting.append(continuation)
                return false
            }
            if handOver { continuation.resume() }
        }
    }

    /// Frees a slot: the next in line gets it directly.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
