import Synchronization

/// The client's transfers in flight, by request, so that an identical request joins the one already
/// on its way instead of sending again (with or without a cache; the cache keeps its own table too).
///
/// A transfer runs in a task of its own. Callers wait on continuations: one that is cancelled leaves
/// at once with `.cancelled` while the others keep waiting, and the last one out cancels the
/// transfer. Delivery and removal happen under one lock, so a caller arriving as a transfer ends
/// either joins it or starts a new one.
final class TransferFlights: Sendable {
    private struct Flight {
        var id: Int
        var task: Task<Void, Never>
        var waiters: [Int: CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>]
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

    /// The answer of the transfer for `key`: the one in flight (or `.duplicate`, by `arrival`), else a
    /// new one running `transfer`.
    func run(_ key: CacheKey, arrival: Arrival,
             _ transfer: @escaping @Sendable () async throws(RiffleError) -> HTTPResponse) async throws(RiffleError) -> HTTPResponse {
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>) in
                let refusal: RiffleError? = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if state.flights[key] != nil {
                        if arrival == .drop { return .duplicate }
                    } else {
                        state.nextID += 1
                        let id = state.nextID
                        let task = Task { await self.finish(key, id: id, with: Self.result(of: transfer)) }
                        state.flights[key] = Flight(id: id, task: task, waiters: [:])
                    }
                    state.flights[key]?.waiters[waiter] = continuation
                    return nil
                }
                if let refusal { continuation.resume(returning: .failure(refusal)) }
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
        return try result.get()
    }

    /// How many callers wait on the transfer for `key` (for tests).
    func waiterCount(_ key: CacheKey) -> Int { state.withLock { $0.flights[key]?.waiters.count ?? 0 } }

    private func leave(_ key: CacheKey, waiter: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>? in
            guard var flight = state.flights[key], let continuation = flight.waiters.removeValue(forKey: waiter) else { return nil }
            if flight.waiters.isEmpty {
                flight.task.cancel()
                state.flights[key] = nil
            } else {
                state.flights[key] = flight
            }
            return continuation
        }
        continuation?.resume(returning: .failure(.cancelled))
    }

    private func finish(_ key: CacheKey, id: Int, with result: Result<HTTPResponse, RiffleError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>] in
            guard let flight = state.flights[key], flight.id == id else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for continuation in waiters { continuation.resume(returning: result) }
    }

    private static func result(of transfer: () async throws(RiffleError) -> HTTPResponse) async -> Result<HTTPResponse, RiffleError> {
        do { return .success(try await transfer()) } catch { return .failure(error) }
    }
}
