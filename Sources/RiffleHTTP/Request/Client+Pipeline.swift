import Foundation
import RiffleJSON
import Synchronization

extension Client {
    /// The whole pipeline for one endpoint, as one plugin call (`perform(_:context:target:)` is its
    /// package entry point).
    /// - Parameters:
    ///   - context: progress and limits for the transfer.
    ///   - target: the cache and body location to use instead of the configuration's cache.
    func run<Response>(_ endpoint: Endpoint<Response>, context: TransferContext,
                       target: CacheTarget?) async throws(RiffleError) -> ClientResponse<Response> {
        try await withPluginCall(endpoint) { request throws(RiffleError) in
            let envelope = envelopeRule(for: endpoint)
            let decoder = configuration.decoder
            let fetch = fetcher(for: endpoint, context: context)
            let cached: CachedResponse
            // The answer is decoded once: the check before storing keeps what it decoded, and the value
            // is taken from there when the same bytes come back.
            let kept = Mutex<(body: Data, value: Response)?>(nil)
            let validate: @Sendable (HTTPResponse) throws(RiffleError) -> Void = { response throws(RiffleError) in
                let value = try Self.decode(response, for: endpoint, envelope: envelope, decoder: decoder)
                kept.withLock { $0 = (response.body, value) }
            }
            let lifetime = lifetime(for: endpoint)
            if let target, Self.isCacheable(endpoint) {
                // `validate` decodes the body itself: the cache need not parse it a second time.
                cached = try await target.respond(request, endpoint.cachePolicy, lifetime, validate, fetch)
            } else if let cache = configuration.cache, Self.isCacheable(endpoint) {
                cached = try await cache.response(for: request, policy: endpoint.cachePolicy, lifetime: lifetime,
                                                  validate: validate, fetch: fetch)
            } else if endpoint.cachePolicy == .returnCacheDontLoad {
                // Cache-only never reaches the network, whatever the method and whether or not there is a cache.
                throw .notCached
            } else {
                cached = CachedResponse(response: try await fetch(request), source: .network)
            }
            let value = try kept.withLock { kept throws(RiffleError) -> Response in
                if let kept, kept.body == cached.response.body { return kept.value }
                return try Self.decode(cached.response, for: endpoint, envelope: envelope, decoder: decoder)
            }
            var reply = ClientResponse(value: value, response: cached.response, source: cached.source, fetchedAt: cached.fetchedAt)
            reply.freshUntil = cached.freshUntil
            return (reply, cached)
        }
    }

    /// Only reads are cached, unless the endpoint asks: a POST's answer usually describes that one call.
    static func isCacheable<Response>(_ endpoint: Endpoint<Response>) -> Bool {
        endpoint.method == .get || endpoint.cacheEligibility == .anyMethod
    }

    func envelopeRule<Response>(for endpoint: Endpoint<Response>) -> EnvelopeRule? {
        switch endpoint.envelope {
        case .client: configuration.envelope
        case .none: nil
        case .rule(let rule): rule
        }
    }

    /// Status, then JSON, envelope, shape, the endpoint's transform and its decoder (else `decoder`).
    static func decode<Response>(_ response: HTTPResponse, for endpoint: Endpoint<Response>,
                                 envelope: EnvelopeRule?, decoder: JSONDecoder) throws(RiffleError) -> Response {
        // A failure envelope with a message on an error status was turned into `.envelope` by the fetcher.
        guard (200...299).contains(response.status) else {
            throw RiffleError.status(of: response)
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
                    // Someone expecting a file's bytes is told where they are.
                    let hint = Response.self == Data.self ? " (Endpoint.bytes reads a body as raw bytes)" : ""
                    throw .invalidJSON(error, in: response.body, from: response.url, hint: hint)
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
            return try decode(payload, exactBytes, endpoint.decoder ?? decoder)
        }
    }
}
