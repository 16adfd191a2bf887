import Foundation

/// A response as RiffleKit needs it: status, headers and the whole body.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header names lowercased; repeated fields joined with ", ".
    public var headers: [String: String]
    /// The body, decoded (gzip, deflate, br) and complete.
    public var body: Data
    /// Where the answer came from: the request's URL, or the last redirect's target.
    public var url: URL

    /// An answer made from its parts.
    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// A header's value, whatever the case of `name`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Something that sends a request and returns the whole response. `CurlTransport` is the one RiffleKit
/// uses; tests and special cases may bring their own.
public protocol HTTPTransporting: Sendable {
    /// Sends `request` under `context` (progress, a concurrency limit); cancelling the calling task
    /// cancels the transfer.
    func send(_ request: HTTPRequest, context: TransferContext) async throws(RiffleError) -> HTTPResponse
}

extension HTTPTransporting {
    /// Sends `request` with no progress and no limit.
    public func send(_ request: HTTPRequest) async throws(RiffleError) -> HTTPResponse {
        try await send(request, context: TransferContext())
    }
}

/// What a caller asks of one transfer besides the request itself.
public struct TransferContext: Sendable {
    /// Told how many bytes went up and came down, in order, never going back.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Transfers sharing this limit run at most `limit.maximum` at a time; the transfer holds its place
    /// only while bytes move (not while its answer is checked).
    public var limit: ConcurrencyLimit?
    /// Told once, when the transfer leaves (after waiting for `limit`): a request's time budget counts
    /// from there.
    public var started: (@Sendable () -> Void)?
    /// What may leave the moment this transfer's answer is complete (`CurlTransport` only).
    package var followOn: FollowOn?

    /// A context with these hooks; none by default.
    public init(progress: (@Sendable (TransferProgress) -> Void)? = nil, limit: ConcurrencyLimit? = nil,
                started: (@Sendable () -> Void)? = nil) {
        self.progress = progress
        self.limit = limit
        self.started = started
    }

    /// A context whose transfer is followed by what `followOn` says (`CurlTransport` only).
    package init(followOn: FollowOn?) {
        self.followOn = followOn
    }

    /// Runs `transfer` holding a place in `limit` (when there is one), after telling `started`: for
    /// transports that have no scheduling of their own.
    public func run<T: Sendable>(_ transfer: () async throws(RiffleError) -> T) async throws(RiffleError) -> T {
        if let limit { await limit.acquire() }
        defer { limit?.release() }
        started?()
        return try await transfer()
    }
}
