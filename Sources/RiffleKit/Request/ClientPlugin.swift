import Foundation

/// Hooks around every request, for logging, metrics or a loading indicator. All methods have empty
/// defaults; implement the ones you need. Called on the sending task (or the client's transfer task),
/// so keep them quick.
///
/// ```swift
/// struct Spinner: ClientPlugin {
///     let counter: Mutex<Int>
///     func willSend(_ request: HTTPRequest) { counter.withLock { $0 += 1 } }
///     func didReceive(_ response: CachedResponse, for request: HTTPRequest, duration: Duration) { counter.withLock { $0 -= 1 } }
///     func didFail(_ error: RiffleError, for request: HTTPRequest, duration: Duration) { counter.withLock { $0 -= 1 } }
/// }
/// ```
public protocol ClientPlugin: Sendable {
    /// Before the request is sent (after the processors ran).
    func willSend(_ request: HTTPRequest)
    /// Before a transient failure is retried, after `delay` (which honours `Retry-After`).
    func willRetry(_ request: HTTPRequest, after delay: Duration, because failure: RiffleError)
    /// After an answer arrived (from the network or the cache) and passed validation.
    func didReceive(_ response: CachedResponse, for request: HTTPRequest, duration: Duration)
    /// After the request failed, including validation and envelope failures.
    func didFail(_ error: RiffleError, for request: HTTPRequest, duration: Duration)
}

extension ClientPlugin {
    public func willSend(_ request: HTTPRequest) {}
    public func willRetry(_ request: HTTPRequest, after delay: Duration, because failure: RiffleError) {}
    public func didReceive(_ response: CachedResponse, for request: HTTPRequest, duration: Duration) {}
    public func didFail(_ error: RiffleError, for request: HTTPRequest, duration: Duration) {}
}
