import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Client {
    /// The whole pipeline for one endpoint; `progress` is told about bytes moved when given.
    func perform<Response>(_ endpoint: Endpoint<Response>,
                           progress: (@Sendable (TransferProgress) -> Void)?) async throws(RiffleError) -> ClientResponse<Response> {
        let request = try request(for: endpoint)
        let plugins = configuration.plugins
        let clock = ContinuousClock()
        let start = clock.now
        for plugin in plugins { plugin.willSend(request) }
        do throws(RiffleError) {
            let envelope = envelopeRule(for: endpoint)
            let fetch = fetcher(for: endpoint, progress: progress)
            let cached: CachedResponse
            // Only reads are cached: a POST's answer describes that one call.
            if let cache = configuration.cache, endpoint.method == .get {
                // Checked inside the cache's call so an answer that fails is never stored.
                let validate: @Sendable (HTTPResponse) throws(RiffleError) -> Void = { response throws(RiffleError) in
                    _ = try Self.decode(response, for: endpoint, envelope: envelope)
                }
                cached = try await cache.response(for: request, policy: endpoint.cachePolicy, maxAge: endpoint.maxAge,
                                                  validate: validate, fetch: fetch)
            } else {
                cached = CachedResponse(response: try await fetch(request), source: .network)
            }
            let value = try Self.decode(cached.response, for: endpoint, envelope: envelope)
            for plugin in plugins { plugin.didReceive(cached, for: request, duration: clock.now - start) }
            return ClientResponse(value: value, response: cached.response, source: cached.source)
        } catch {
            let reported: RiffleError = Task.isCancelled ? .cancelled : error
            for plugin in plugins { plugin.didFail(reported, for: request, duration: clock.now - start) }
            throw reported
        }
    }

    func envelopeRule<Response>(for endpoint: Endpoint<Response>) -> EnvelopeRule? {
        switch endpoint.envelope {
        case .client: configuration.envelope
        case .none: nil
        case .rule(let rule): rule
        }
    }

    /// Status, then JSON, envelope, shape, the endpoint's transform and its decoder.
    static func decode<Response>(_ response: HTTPResponse, for endpoint: Endpoint<Response>,
                                 envelope: EnvelopeRule?) throws(RiffleError) -> Response {
        guard (200...299).contains(response.status) else {
            // A failure envelope on an error status carries a better message than the status.
            if let envelope, let document = try? JSONParser.parse(response.body),
               case .failure(let error) = Result(catching: { () throws(RiffleError) in try envelope.unwrap(document) }),
               case .envelope = error {
                throw error
            }
            throw .httpStatus(code: response.status, excerpt: excerpt(response.body))
        }
        switch endpoint.decoding {
        case .raw(let decode):
            return try decode(response.body)
        case .json(let decode):
            var payload: JSONValue
            var exactBytes: Data? = response.body
            if response.body.isEmpty && (response.status == 204 || endpoint.method == .head) {
                payload = .null
                exactBytes = nil
            } else {
                do { payload = try JSONParser.parse(response.body) } catch {
                    throw .invalidJSON(offset: error.offset, reason: error.reason)
                }
            }
            if let envelope {
                payload = try envelope.unwrap(payload)
                exactBytes = nil
            }
            try endpoint.shape?.validate(payload)
            if let transform = endpoint.transform {
                payload = try transform(payload)
                exactBytes = nil
            }
            return try decode(payload, exactBytes)
        }
    }

    /// The start of a body as one printable line, for `httpStatus` errors.
    static func excerpt(_ body: Data, limit: Int = 100) -> String {
        guard let text = String(data: body.prefix(limit * 4), encoding: .utf8) else { return "" }
        return RiffleError.oneLine(text, limit: limit)
    }
}
