import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response together with where it came from.
public struct CachedResponse: Sendable, Equatable {
    /// Where a response came from.
    public enum Source: Sendable, Equatable {
        /// The cache, with no request.
        case cache
        /// The network.
        case network
        /// The cache, after the server confirmed it was still current (304).
        case revalidated
        /// The cache, past its max age, because the network failed.
        case stale
    }

    /// The response as the server sent it (or as it was stored).
    public var response: HTTPResponse
    /// Where `response` came from.
    public var source: Source

    public init(response: HTTPResponse, source: Source) {
        self.response = response
        self.source = source
    }
}

/// A response cache the `Client` can consult: it decides, from the policy and what it holds, whether
/// to answer from storage or call `fetch`.
///
/// `Client` never stores anything itself: without a cache every request goes to the network. The
/// client passes two closures: `validate` checks a network answer (status, envelope, shape) and the
/// cache must call it before storing, so an invalid answer is never cached; `fetch` performs the
/// request (with the client's retries).
public protocol ResponseCaching: Sendable {
    /// One response for `request` according to `policy`.
    /// - Parameter maxAge: how old a stored response may be and still count as fresh; nil: the cache's default.
    func response(for request: URLRequest, policy: CachePolicy, maxAge: TimeInterval?,
                  validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                  fetch: @escaping @Sendable (URLRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse

    /// Every response for `request`: for `.returnCacheThenLoad` the cached one, then the network's.
    func responses(for request: URLRequest, policy: CachePolicy, maxAge: TimeInterval?,
                   validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                   fetch: @escaping @Sendable (URLRequest) async throws(RiffleError) -> HTTPResponse)
        -> AsyncThrowingStream<CachedResponse, any Error>
}
