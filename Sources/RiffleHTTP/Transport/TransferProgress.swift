/// How far a transfer has got.
public struct TransferProgress: Sendable, Equatable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Equatable {
        /// The request body going to the server.
        case upload
        /// The response body coming back.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// Bytes moved so far.
    public var completed: Int64
    /// Bytes expected in all; nil when the server did not say (no `Content-Length`).
    public var expected: Int64?

    /// A progress step: `completed` of `expected` bytes (nil when unknown) in `direction`.
    public init(direction: Direction, completed: Int64, expected: Int64?) {
        self.direction = direction
        self.completed = completed
        self.expected = expected
    }

    /// `completed / expected`, 0...1; nil when the total is unknown.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(completed) / Double(expected))
    }
}
