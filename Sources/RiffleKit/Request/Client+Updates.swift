import Foundation

extension Client {
    /// Every answer for `endpoint` under its cache policy, as they come: with `.returnCacheThenLoad` the
    /// cached value at once and then the network's. Without a cache (or for a non-GET) one network answer.
    ///
    /// ```swift
    /// for try await reply in client.updates(Endpoint<[Story]>(.get, "/top", cachePolicy: .returnCacheThenLoad)) {
    ///     show(reply.value, from: reply.source)
    /// }
    /// ```
    public func updates<Response>(_ endpoint: Endpoint<Response>) -> AsyncThrowingStream<ClientResponse<Response>, any Error> {
        guard let cache = configuration.cache, endpoint.method == .get else {
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do throws(RiffleError) {
                        continuation.yield(try await send(endpoint))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                let plugins = configuration.plugins
                let clock = ContinuousClock()
                let start = clock.now
                var sent: HTTPRequest?
                do {
                    let request = try request(for: endpoint)
                    sent = request
                    for plugin in plugins { plugin.willSend(request) }
                    let envelope = envelopeRule(for: endpoint)
                    let validate: @Sendable (HTTPResponse) throws(RiffleError) -> Void = { response throws(RiffleError) in
                        _ = try Self.decode(response, for: endpoint, envelope: envelope)
                    }
                    let answers = cache.responses(for: request, policy: endpoint.cachePolicy, maxAge: endpoint.maxAge,
                                                  validate: validate, fetch: fetcher(for: endpoint, context: TransferContext()))
                    for try await cached in answers {
                        let value = try Self.decode(cached.response, for: endpoint, envelope: envelope)
                        for plugin in plugins { plugin.didReceive(cached, for: request, duration: clock.now - start) }
                        continuation.yield(ClientResponse(value: value, response: cached.response, source: cached.source, fetchedAt: cached.fetchedAt))
                    }
                    continuation.finish()
                } catch {
                    let reported = Task.isCancelled ? .cancelled : (error as? RiffleError ?? .transport(String(describing: error)))
                    if let sent { for plugin in plugins { plugin.didFail(reported, for: sent, duration: clock.now - start) } }
                    continuation.finish(throwing: reported)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
