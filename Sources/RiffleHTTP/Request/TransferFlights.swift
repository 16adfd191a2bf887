import Synchronization

/// The client's transfers in flight, by request, so that an identical request joins the one already
/// on its way instead of sending again (with or without a cache; the cache keeps its own table too).
///
/// The first caller runs the transfer in its own task, so the common case (no duplicate) costs two
/// lock steps and no hop to another task. Callers that join wait on continuations; one that is
/// cancelled leaves at once with `.cancelled`. When the first caller is cancelled its transfer ends
/// with it, and a waiter that was not cancelled starts over: it runs the transfer itself or joins the
/// next one. Delivery and removal happen under one lock, so a caller arriving as a transfer ends
/// either joins it or starts a new one.
final class TransferFlights: Sendable {
    private typealias Waiter = CheckedContinuation<Outcome, Never>

    /// What a waiting caller is woken with.
    private enum Outcome {
        case answer(Result<HTTPResponse, RiffleError>)
        /// The transfer was gone by the time the caller came to wait: start over.
        case again
    }

    private struct Flight {
        var id: Int
        var waiters: [Int: Waiter] = [:]
    }

    private struct State {
        var flights: [CacheKey: Flight] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// What to do when a transfer for the key is in flight.
    enum Arrival {
        /// Wait for its answer.
        case join
        /// Fail at once with `RiffleError.duplicate`.
        case drop
    }

    /// The answer of the transfer for `key`: the one in flight (or `.duplicate`, by `arrival`), else
    /// `transfer`'s, run here.
    func run(_ key: CacheKey, arrival: Arrival,
             _ transfer: () async throws(RiffleError) -> HTTPResponse) async throws(RiffleError) -> HTTPResponse {
        while true {
            enum Role { case first(Int), joining, refused }
            let role = state.withLock { state -> Role in
                if state.flights[key] != nil { return arrival == .drop ? .refused : .joining }
                state.nextID += 1
                state.flights[key] = Flight(id: state.nextID)
                return .first(state.nextID)
            }
            switch role {
            case .refused:
                throw .duplicate
            case .first(let id):
                let result: Result<HTTPResponse, RiffleError>
                do { result = .success(try await transfer()) } catch { result = .failure(error) }
                let waiters = state.withLock { state -> [Waiter] in
                    guard let flight = state.flights[key], flight.id == id else { return [] }
                    state.flights[key] = nil
                    return Array(flight.waiters.values)
                }
                for waiter in waiters { waiter.resume(returning: .answer(result)) }
                return try result.get()
            case .joining:
                switch await wait(for: key) {
                case .again:
                    continue
                case .answer(.failure(.cancelled)) where !Task.isCancelled:
                    continue  // the first caller was cancelled, this one was not
                case .answer(let result):
                    return try result.get()
                }
            }
        }
    }

    /// How many callers wait on the transfer for `key`, its first caller not counted (for tests).
    func waiterCount(_ key: CacheKey) -> Int { state.withLock { $0.flights[key]?.waiters.count ?? 0 } }

    /// Whether a transfer for `key` is in flight (for tests).
    func isInFlight(_ key: CacheKey) -> Bool { state.withLock { $0.flights[key] != nil } }

    private func wait(for key: CacheKey) async -> Outcome {
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let immediate: Outcome? = state.withLock { state in
                    if Task.isCancelled { return .answer(.failure(.cancelled)) }
                    guard state.flights[key] != nil else { return .again }
                    state.flights[key]?.waiters[waiter] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.flights[key]?.waiters.removeValue(forKey: waiter) }
            continuation?.resume(returning: .answer(.failure(.cancelled)))
        }
    }
}
