import Synchronization

/// At most `maximum` transfers at once, handed on in the order asked: `PageLoader`'s serial queue is a
/// limit of 1 that its page requests share.
///
/// A lock rather than an actor: a finished transfer hands its place to the next in line on the thread
/// it finished on. The next in line is either a waiting task, resumed, or a start action a transport
/// queued (`schedule`), run right there, so `CurlTransport` sends the next request from its I/O thread
/// the moment the previous answer is read, with no thread to wake in between.
///
/// ```swift
/// let serial = ConcurrencyLimit(1)
/// var endpoint = Endpoint<JSONValue>(.get, "/items")
/// endpoint.limit = serial
/// ```
public final class ConcurrencyLimit: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case action(@Sendable () -> Void)
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        var started = 0
    }

    /// How many transfers may run at once (at least 1).
    public let maximum: Int
    private let state = Mutex(State())

    /// A limit of `maximum` transfers at a time (at least 1).
    public init(_ maximum: Int) { self.maximum = max(1, maximum) }

    /// Transfers started or queued under this limit so far.
    public var requestCount: Int { state.withLock { $0.started } }

    /// Waits for a place.
    public func acquire() async {
        let granted = state.withLock { state -> Bool in
            state.started += 1
            guard state.running < maximum else { return false }
            state.running += 1
            return true
        }
        if granted { return }
        await withCheckedContinuation { continuation in
            // A place freed between the check above and now is handed over here rather than lost.
            let handOver = state.withLock { state -> Bool in
                if state.running < maximum {
                    state.running += 1
                    return true
                }
                state.waiting.append(.task(continuation))
                return false
            }
            if handOver { continuation.resume() }
        }
    }

    /// Runs `start` holding a place: now, on this thread, when one is free, else on the thread that frees
    /// one. `start` must not block, and whatever it starts must call `release()` once.
    public func schedule(_ start: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            state.started += 1
            guard state.running < maximum else {
                state.waiting.append(.action(start))
                return false
            }
            state.running += 1
            return true
        }
        if now { start() }
    }

    /// Takes a place when one is free and no one is waiting for one; false otherwise. Whoever gets
    /// one must call `release()` once.
    package func tryAcquire() -> Bool {
        state.withLock { state in
            guard state.running < maximum, state.waiting.isEmpty else { return false }
            state.running += 1
            state.started += 1
            return true
        }
    }

    /// Frees a place: the next in line gets it directly.
    public func release() {
        let next = state.withLock { state -> Waiter? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        switch next {
        case .task(let continuation)?: continuation.resume()
        case .action(let start)?: start()
        case nil: break
        }
    }
}
