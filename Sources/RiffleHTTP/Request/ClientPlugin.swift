import Foundation
import RiffleJSON

/// Hooks around every call, for logging, metrics or a loading indicator. All methods have empty
/// defaults; implement the ones you need. Called on the sending task (or the client's transfer task),
/// so keep them quick.
///
/// Every `willSend` is followed by exactly one finishing callback, `didReceive` or `didFail`, on every
/// path: `send`, `updates` (one call however many values it delivers), batches, retries (each retry is
/// told with `willRetry`, inside the call), cancellation (`didFail` with `.cancelled`) and an endpoint
/// that fails before anything is sent (`willSend` with no `request`, then `didFail`). So a counter of
/// calls in flight always returns to zero:
///
/// ```swift
/// import Synchronization
///
/// /// Shows a spinner while calls are in flight, except those tagged `.silent`.
/// final class Spinner: ClientPlugin {
///     let inFlight = Mutex(0)
///     func willSend(_ call: ClientCall) {
///         guard !call.tags.contains(.silent) else { return }
///         inFlight.withLock { $0 += 1 }
///     }
///     func didReceive(_ response: CachedResponse, for call: ClientCall, duration: Duration) { finish(call) }
///     func didFail(_ error: RiffleError, for call: ClientCall, duration: Duration) { finish(call) }
///     private func finish(_ call: ClientCall) {
///         guard !call.tags.contains(.silent) else { return }
///         inFlight.withLock { $0 -= 1 }
///     }
/// }
///
/// var configuration = Client.Configuration(baseURL: api)
/// configuration.plugins.append(Spinner())
/// var history = Endpoint<JSONValue>(.post, "/history", body: .json(["video": 42]))
/// history.tags = [.silent]    // no spinner for this one
/// ```
public protocol ClientPlugin: Sendable {
    /// Before the call's request is sent (after the processors ran), or looked up in the cache; with no
    /// `request` when the endpoint could not be made into one.
    func willSend(_ call: ClientCall)
    /// Before a transient failure is retried, after `delay` (which honours `Retry-After`).
    func willRetry(_ call: ClientCall, after delay: Duration, because failure: RiffleError)
    /// After the call's answer arrived (from the network or the cache) and passed validation; for
    /// `updates`, its last answer.
    func didReceive(_ response: CachedResponse, for call: ClientCall, duration: Duration)
    /// After the call failed, including validation and envelope failures and cancellation.
    func didFail(_ error: RiffleError, for call: ClientCall, duration: Duration)
}

extension ClientPlugin {
    /// Does nothing.
    public func willSend(_ call: ClientCall) {}
    /// Does nothing.
    public func willRetry(_ call: ClientCall, after delay: Duration, because failure: RiffleError) {}
    /// Does nothing.
    public func didReceive(_ response: CachedResponse, for call: ClientCall, duration: Duration) {}
    /// Does nothing.
    public func didFail(_ error: RiffleError, for call: ClientCall, duration: Duration) {}
}

/// One call of an endpoint as plugins see it: the request as sent, and what the endpoint says about itself.
public struct ClientCall: Sendable {
    /// The request, processors applied (for `willRetry`, with the cache's conditional headers); nil
    /// when the endpoint could not be made into one (no secondary base URL, a processor or a body that
    /// failed), and `didFail` then says why.
    public var request: HTTPRequest?
    /// The endpoint's name (`Endpoint.name`), if it has one: "login", "history".
    public var name: String?
    /// The endpoint's tags (`Endpoint.tags`), e.g. `.silent`.
    public var tags: Set<RequestTag>

    /// A call of `request`, named and tagged as its endpoint is.
    public init(request: HTTPRequest?, name: String? = nil, tags: Set<RequestTag> = []) {
        self.request = request
        self.name = name
        self.tags = tags
    }
}

/// A label an endpoint carries for plugins, e.g. to keep a loading indicator hidden for it.
///
/// ```swift
/// extension RequestTag {
///     static let analytics: RequestTag = "analytics"
/// }
/// ```
public struct RequestTag: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The tag's text.
    public var rawValue: String

    /// A tag called `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A tag from a literal: `"silent"`.
    public init(stringLiteral value: String) { rawValue = value }

    /// The tag's name.
    public var description: String { rawValue }

    /// A call the user did not ask for and should not see: no loading indicator, no error toast
    /// (the seeds' `isHidenHUD`, for uploading play history in the background).
    public static let silent: RequestTag = "silent"
}
