import Foundation
import Synchronization

extension Client {
    /// The transport call for `endpoint`: response processors, retries and the time budget. This is the
    /// `fetch` a cache calls.
    ///
    /// An answer with an error status whose body is a failure envelope with a message becomes
    /// `RiffleError.envelope` here, once the retries are over, so the server's words win with a cache
    /// as without one.
    ///
    /// The budget (the request's `timeout`) covers every attempt and the waits between them, counted
    /// from when the first attempt leaves (not while it waits behind a `ConcurrencyLimit`): each attempt
    /// gets what is left of it, and no retry is waited for that would end past it.
    func fetcher<Response>(for endpoint: Endpoint<Response>, context base: TransferContext)
        -> @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse {
        let transport = self.transport
        let configuration = self.configuration
        let policy = configuration.retry
        let retries = switch endpoint.retry {
        case .never: 0
        case .always: policy.maxRetries
        case .whenIdempotent: endpoint.method.isIdempotent ? policy.maxRetries : 0
        }
        var base = base
        base.limit = endpoint.limit ?? base.limit
        let context = base
        let envelope = envelopeRule(for: endpoint)
        let name = endpoint.name, tags = endpoint.tags
        let attempts: @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse = { request throws(RiffleError) in
            let budget = request.timeout ?? configuration.timeout
            let firstStart = Mutex<ContinuousClock.Instant?>(nil)
            var attemptContext = context
            attemptContext.started = {
                firstStart.withLock { if $0 == nil { $0 = .now } }
                context.started?()
            }
            var attempt = 0
            while true {
                let elapsed = firstStart.withLock { $0 }.map { ContinuousClock.now - $0 } ?? .zero
                var sent = request
                sent.timeout = max(.milliseconds(1), budget - elapsed)
                let wait: Duration
                let failure: RiffleError
                var answer: HTTPResponse?
                do throws(RiffleError) {
                    var response = try await transport.send(sent, context: attemptContext)
                    for processor in configuration.responseProcessors { try processor.apply(&response, sent) }
                    guard attempt < retries, RetryPolicy.transientStatuses.contains(response.status) else { return response }
                    wait = policy.delay(beforeRetry: attempt, retryAfter: response.header("retry-after"))
                    failure = .httpStatus(code: response.status, excerpt: "")
                    answer = response
                } catch {
                    guard attempt < retries, RetryPolicy.isTransient(error) else { throw error }
                    wait = policy.delay(beforeRetry: attempt)
                    failure = error
                }
                // A retry that could not finish within the budget is not started: the last outcome stands.
                let spent = firstStart.withLock { $0 }.map { ContinuousClock.now - $0 } ?? .zero
                if spent + wait >= budget {
                    if let answer { return answer }
                    throw failure
                }
                let call = ClientCall(request: request, name: name, tags: tags)
                for plugin in configuration.plugins { plugin.willRetry(call, after: wait, because: failure) }
                do { try await configuration.sleep(wait) } catch { throw .cancelled }
                if Task.isCancelled { throw .cancelled }
                attempt += 1
            }
        }
        let answer: @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse = { request throws(RiffleError) in
            let response = try await attempts(request)
            if let envelope, !(200...299).contains(response.status), response.status != 304,
               let failure = envelope.message(inErrorAnswer: response.body) {
                throw failure
            }
            return response
        }
        let arrival: TransferFlights.Arrival? = switch endpoint.duplicates {
        case .automatic: endpoint.method == .get || endpoint.method == .head ? .join : nil
        case .join: .join
        case .drop: .drop
        case .send: nil
        }
        guard let arrival else { return answer }
        // Identical requests share one transfer (retries included), run by the first caller: its
        // progress and limit are the transfer's.
        let flights = self.flights
        return { request throws(RiffleError) in
            try await flights.run(CacheKey.flight(request), arrival: arrival) { () async throws(RiffleError) in
                try await answer(request)
            }
        }
    }
}
