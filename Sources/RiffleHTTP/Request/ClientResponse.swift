import Foundation

/// What `Client.send(_:)` returns: the decoded value and the response it came from.
public struct ClientResponse<Value: Sendable>: Sendable {
    /// The decoded payload.
    public var value: Value
    /// Status, headers and the raw bytes, as received (or as cached).
    public var response: HTTPResponse
    /// Whether it came from the network or the cache.
    public var source: CachedResponse.Source
    /// When the bytes were fetched from the server or last confirmed by it.
    public var fetchedAt: Date
    /// Until when the cache holds them fresh (`CachedResponse.freshUntil`); nil when not cached.
    public var freshUntil: Date?
    /// In `Client.updates(_:)`: whether this answer is the one delivered just before it, unchanged: the
    /// same body, or the server's 304 Not Modified for it. The first answer is never unchanged (nor is
    /// the one `send` returns), so a screen redraws only when this is false.
    public var isUnchanged: Bool

    /// A reply made from its parts, e.g. by a test double.
    public init(value: Value, response: HTTPResponse, source: CachedResponse.Source, fetchedAt: Date = Date(),
                isUnchanged: Bool = false) {
        self.value = value
        self.response = response
        self.source = source
        self.fetchedAt = fetchedAt
        self.isUnchanged = isUnchanged
    }

    /// The HTTP status code.
    public var status: Int { response.status }
}
