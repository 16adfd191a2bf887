import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport RiffleKit uses unless given another: plain `http://` to this machine goes over
/// `LoopbackTransport`, everything else (https, remote hosts) over `URLSessionTransport`, which keeps
/// proxies, TLS and content decoding.
///
/// URLSession is the right client for the network but costs close to a millisecond per request on
/// loopback, where a local feed or the demo server lives. The URLSession itself is made on the first
/// request that needs it, so a purely local session never loads libcurl.
///
/// ```swift
/// let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: DefaultTransport())
/// ```
public final class DefaultTransport: HTTPTransporting {
    let loopback: LoopbackTransport
    let remote: URLSessionTransport

    /// - Parameter timeout: seconds a request may take when it does not set its own `timeoutInterval`.
    public init(timeout: Int = 30) {
        remote = URLSessionTransport(timeout: timeout)
        // Redirects from loopback to elsewhere are handed to URLSession.
        loopback = LoopbackTransport(timeout: timeout, fallback: remote)
    }

    public func send(_ request: URLRequest) async throws(RiffleError) -> HTTPResponse {
        try await send(request, progress: nil)
    }

    public func send(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws(RiffleError) -> HTTPResponse {
        if LoopbackTransport.canSend(request) { return try await loopback.send(request, progress: progress) }
        return try await remote.send(request, progress: progress)
    }
}
