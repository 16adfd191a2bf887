import Foundation

// What the modules above RiffleHTTP reach of a `Client` without it being public API, in one place:
// RiffleKit's `PageLoader` sends each page through `perform(_:context:target:)` with a `CacheTarget`
// that keeps the page in its own file and asks `lifetime(for:)` how long it stays fresh; a feed's
// client is derived from the app's with `transport` and `trustedOrigins`; RiffleCache's
// `ResponseCache.target(_:)` makes the `CacheTarget`. Everything else a caller needs is public.

/// A cache to use instead of the configuration's, for callers that keep bodies in places of their own
/// (`PageLoader` keeps each page in its file): given the request, the endpoint's policy and lifetime, and
/// the pipeline's `validate` (which decodes the body itself, so the cache need not parse it again) and
/// `fetch`, it answers as `ResponseCaching.response` does.
package struct CacheTarget: Sendable {
    package typealias Respond = @Sendable (_ request: HTTPRequest, _ policy: CachePolicy, _ lifetime: CacheLifetime,
                                           _ validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                                           _ fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse
    package var respond: Respond

    package init(_ respond: @escaping Respond) { self.respond = respond }
}

extension Client {
    /// `send`, with progress and limits for the transfer (`context`) and, when `target` is given, that
    /// cache instead of the configuration's. One call for the plugins, as `send` is.
    package func perform<Response>(_ endpoint: Endpoint<Response>, context: TransferContext = TransferContext(),
                                   target: CacheTarget? = nil) async throws(RiffleError) -> ClientResponse<Response> {
        try await run(endpoint, context: context, target: target)
    }

    /// The transport this client sends through: a client derived from this one (a feed's) shares it, and
    /// with it the connections and the engine thread.
    package var transport: any HTTPTransporting { sender }

    /// Where credential processors may send what they add: the base URLs' origins.
    package var trustedOrigins: [Origin] { [Origin(configuration.baseURL), configuration.secondaryBaseURL.flatMap(Origin.init)].compactMap { $0 } }

    /// How long `endpoint`'s answers stay fresh: its `maxAge` (else the client's default) as a fallback
    /// for the server's headers, or over them when the app's time has precedence.
    package func lifetime<Response>(for endpoint: Endpoint<Response>) -> CacheLifetime {
        let seconds = endpoint.maxAge ?? configuration.defaultMaxAge
        switch endpoint.maxAgePrecedence ?? configuration.maxAgePrecedence {
        case .server: return .server(fallback: seconds)
        case .app: return .fixed(seconds)
        }
    }
}
