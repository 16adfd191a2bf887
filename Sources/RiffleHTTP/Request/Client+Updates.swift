import Foundation

extension Client {
    /// Every answer for `endpoint` under its cache policy, as they come: with `.returnCacheThenLoad` the
    /// cached value at once, then the network's, which says whether it changed (`isUnchanged`: the same
    /// body, or a 304). Without a cache (or for a method the cache does not keep) one network answer.
    ///
    /// ```swift
    /// struct Story: Decodable, Sendable { var title: String }
    ///
    /// let top = Endpoint<[Story]>(.get, "/top", cachePolicy: .returnCacheThenLoad)
    /// do throws(RiffleError) {
    ///     for try await reply in client.updates(top, unchanged: .skip) {
    ///         print(reply.source, reply.value.map(\.title))   // the cache's, then the network's if it differs
    ///     }
    /// } catch {
    ///     print(error.isOffline ? "offline" : "\(error)")
    /// }
    /// ```
    ///
    /// Plugins see one call: one `willSend`, then `didReceive` with the last answer or `didFail`.
    /// Ending the iteration early cancels the request.
    /// - Parameters:
    ///   - endpoint: what to send; its `cachePolicy` should be `.returnCacheThenLoad` for two answers.
    ///   - unchanged: `.skip` leaves out an answer equal to the one before it, as the seeds'
    ///     callback did; `.deliver` (the default) yields it with `isUnchanged` set.
    public func updates<Response>(_ endpoint: Endpoint<Response>, unchanged: UnchangedAnswers = .deliver) -> ClientUpdates<Response> {
        ClientUpdates(AsyncThrowingStream { continuation in
            let task = Task {
                do throws(RiffleError) {
                    var previous: ClientResponse<Response>?
                    try await forEachUpdate(of: endpoint) { (reply: ClientResponse<Response>) in
                        var reply = reply
                        if let previous {
                            reply.isUnchanged = reply.source == .revalidated || reply.response.body == previous.response.body
                        }
                        previous = reply
                        if !(reply.isUnchanged && unchanged == .skip) { continuation.yield(reply) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        })
    }

    /// Calls `deliver` with each answer in order, as one call for the plugins.
    private func forEachUpdate<Response>(of endpoint: Endpoint<Response>,
                                         _ deliver: (ClientResponse<Response>) -> Void) async throws(RiffleError) {
        guard let cache = configuration.cache, Self.isCacheable(endpoint), endpoint.cachePolicy == .returnCacheThenLoad else {
            deliver(try await send(endpoint))
            return
        }
        try await withPluginCall(endpoint) { request throws(RiffleError) in
            let envelope = envelopeRule(for: endpoint)
            let decoder = configuration.decoder
            let validate: @Sendable (HTTPResponse) throws(RiffleError) -> Void = { response throws(RiffleError) in
                _ = try Self.decode(response, for: endpoint, envelope: envelope, decoder: decoder)
            }
            let answers = cache.responses(for: request, policy: endpoint.cachePolicy, lifetime: lifetime(for: endpoint),
                                          validate: validate, fetch: fetcher(for: endpoint, context: TransferContext()))
            var last: CachedResponse?
            do {
                for try await cached in answers {
                    let value = try Self.decode(cached.response, for: endpoint, envelope: envelope, decoder: decoder)
                    last = cached
                    deliver(ClientResponse(value: value, response: cached.response, source: cached.source, fetchedAt: cached.fetchedAt))
                }
            } catch {
                throw RiffleError(wrapping: error)
            }
            if Task.isCancelled { throw .cancelled }
            guard let last else { throw .notCached }
            return ((), last)
        }
    }
}

/// What `Client.updates(_:unchanged:)` does with an answer equal to the one before it.
public enum UnchangedAnswers: Sendable, Equatable {
    /// Yield it, with `isUnchanged` set (the default).
    case deliver
    /// Leave it out: a caller that already shows the cached value gets nothing more.
    case skip
}

/// The answers of `Client.updates(_:unchanged:)`, in order: an `AsyncSequence` whose errors are
/// `RiffleError`, so a `do throws(RiffleError)` around the loop needs no cast.
public struct ClientUpdates<Response: Sendable>: AsyncSequence, Sendable {
    /// Each answer: the cached one, then the network's.
    public typealias Element = ClientResponse<Response>
    /// Failures are `RiffleError`s.
    public typealias Failure = RiffleError

    private let stream: AsyncThrowingStream<ClientResponse<Response>, any Error>

    init(_ stream: AsyncThrowingStream<ClientResponse<Response>, any Error>) { self.stream = stream }

    /// An iterator over the answers; the request starts with the first `next()`.
    public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

    /// Reads the answers one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ClientResponse<Response>, any Error>.AsyncIterator

        /// The next answer, nil after the last.
        public mutating func next() async throws(RiffleError) -> ClientResponse<Response>? {
            do { return try await base.next() } catch { throw RiffleError(wrapping: error) }
        }

        /// The next answer, nil after the last.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RiffleError) -> ClientResponse<Response>? {
            do { return try await base.next(isolation: actor) } catch { throw RiffleError(wrapping: error) }
        }
    }
}
