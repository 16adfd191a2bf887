import Foundation

/// Something that answers requests from a cache according to a `CachePolicy`, asking `fetch` for the
/// network when the policy and the entry's freshness call for it. `ResponseCache` is the implementation;
/// a `Client` uses one through `Client.Configuration.cache`.
///
/// Identical requests that arrive while one is in flight share its transfer.
///
/// ```swift
/// let cache = ResponseCache(directory: URL(filePath: "/tmp/riffle-example"))
/// let request = HTTPRequest(url: URL(string: "https://api.example.com/items")!)
/// let transport = CurlTransport()
/// let value = try await cache.response(for: request, policy: .returnCacheElseLoad, lifetime: .server(fallback: 300),
///                                      validate: { _ in }, fetch: { request throws(RiffleError) in try await transport.send(request) })
/// print(value.source, try await cache.statistics().totalSize)
/// ```
public protocol ResponseCaching: Sendable {
    /// One value for `request`: cached, fetched, revalidated (304) or stale (network failed).
    ///
    /// - Parameters:
    ///   - request: the request to answer; its method, URL, body and credential headers make the key.
    ///   - policy: how the cache is used; `.returnCacheThenLoad` answers here with the network value
    ///     (use `responses` to get both values).
    ///   - lifetime: how long a stored answer stays fresh: the server's headers with a fallback
    ///     (RFC 9111), or a fixed time that overrides them.
    ///   - validate: rejects a 2xx answer that must not be stored or returned.
    ///   - fetch: sends the request (with any conditional headers the cache added).
    func response(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                  validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                  fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse

    /// The values of `request` in order: for `.returnCacheThenLoad` the cached value (if any), then the
    /// network value with `differsFromCache` set; for other policies the single value of `response`.
    /// Errors are `RiffleError`.
    func responses(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                   validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                   fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        -> AsyncThrowingStream<CachedResponse, any Error>

    /// What the cache holds: total size, entry count, the size limit.
    func statistics() async throws(RiffleError) -> CacheStatistics

    /// Empties the cache.
    func removeAll() async throws(RiffleError)
}

extension ResponseCaching {
    /// `response(for:policy:lifetime:validate:fetch:)` with `.server(fallback: maxAge)`: the server's
    /// headers decide, `maxAge` seconds when they say nothing.
    public func response(for request: HTTPRequest, policy: CachePolicy, maxAge: TimeInterval?,
                         validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                         fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse {
        try await response(for: request, policy: policy, lifetime: .server(fallback: maxAge), validate: validate, fetch: fetch)
    }

    /// `responses(for:policy:lifetime:validate:fetch:)` with `.server(fallback: maxAge)`.
    public func responses(for request: HTTPRequest, policy: CachePolicy, maxAge: TimeInterval?,
                          validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                          fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        -> AsyncThrowingStream<CachedResponse, any Error> {
        responses(for: request, policy: policy, lifetime: .server(fallback: maxAge), validate: validate, fetch: fetch)
    }
}

/// A response together with where it came from and how old it is.
public struct CachedResponse: Sendable, Equatable {
    /// Where the value came from.
    public enum Source: String, Sendable, Equatable {
        /// A fresh stored entry; no request was made.
        case cache
        /// A full answer from the server just now.
        case network
        /// A stored entry the server confirmed with 304 Not Modified; its age starts again.
        case revalidated
        /// A stored entry past its freshness, returned because the network failed.
        case stale
    }

    /// The response; for `.revalidated` and `.stale`, the stored one.
    public var response: HTTPResponse
    /// Where `response` came from.
    public var source: Source
    /// When the bytes were fetched or last confirmed by the server.
    public var fetchedAt: Date
    /// Seconds since `fetchedAt` at the moment of answering.
    public var age: TimeInterval
    /// For the network value of `.returnCacheThenLoad`: whether its body differs from the cached value
    /// delivered before it (true when there was none). False for every other value.
    public var differsFromCache: Bool
    /// Until when the value may be used without asking the server, as the cache decided (the
    /// server's `Cache-Control`/`Expires`, else the request's `maxAge`); nil for an answer that
    /// was not cached.
    public var freshUntil: Date?
    /// What the body's owner stored beside it (the note of `RiffleCache`'s `BodyLocation.named`).
    package var note: String?

    /// Creates a value; the cache makes these, tests and fakes may too.
    public init(response: HTTPResponse, source: Source, fetchedAt: Date = Date(), age: TimeInterval = 0, differsFromCache: Bool = false) {
        self.response = response
        self.source = source
        self.fetchedAt = fetchedAt
        self.age = age
        self.differsFromCache = differsFromCache
    }
}
