import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hooks around every request, for logging, metrics or a loading indicator. All methods have empty
/// defaults; implement the ones you need. Called on the sending task, so keep them quick.
///
/// ```swift
/// struct Spinner: ClientPlugin {
///     let counter: LoadingCounter
///     func willSend(_ request: URLRequest) { counter.increment() }
///     func didFinish(_ request: URLRequest, result: Result<CachedResponse, RiffleError>, duration: Duration) {
///         counter.decrement()
///     }
/// }
/// ```
public protocol ClientPlugin: Sendable {
    /// Before the request is sent (after the processors ran).
    func willSend(_ request: URLRequest)
    /// After an answer arrived (from the network or the cache) and passed validation.
    func didReceive(_ response: CachedResponse, for request: URLRequest, duration: Duration)
    /// After the request failed, including validation and envelope failures.
    func didFail(_ error: RiffleError, for request: URLRequest, duration: Duration)
}

extension ClientPlugin {
    public func willSend(_ request: URLRequest) {}
    public func didReceive(_ response: CachedResponse, for request: URLRequest, duration: Duration) {}
    public func didFail(_ error: RiffleError, for request: URLRequest, duration: Duration) {}
}
