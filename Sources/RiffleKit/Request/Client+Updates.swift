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
                do {
                    let request = try request(for: endpoint)
                    let envelope = envelopeRule(for: endpoint)
                    let validate: @Sendable (HTTPResponse) throws(RiffleError) -> Void = { response throws(RiffleError) in
                        _ = try Self.decode(response, for: endpoint, envelope: envelope)
                    }
                    let answers = cache.responses(for: request, policy: endpoint.cachePolicy, maxAge: endpoint.maxAge,
                                                  validate: validate, fetch: fetcher(for: endpoint, progress: nil))
                    for try await cached in answers {
                        let value = try Self.decode(cached.response, for: endpoint, envelope: envelope)
                        continuation.yield(ClientResponse(value: value, response: cached.response, source: cached.source))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Task.isCancelled ? RiffleError.cancelled : error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
