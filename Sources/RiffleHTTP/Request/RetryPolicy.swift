import Foundation

/// When and how long the client waits before trying a request again.
///
/// Transient failures are timeouts, a lost connection and statuses 429, 502, 503 and 504. The wait before
/// retry *n* (0-based) is `baseDelay * 2^n`, capped at `maxDelay`, minus up to `jitter` of itself at random
/// so many clients do not retry in step; a `Retry-After` header (seconds or an HTTP date) replaces it,
/// capped at `maxRetryAfter`.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt; 0 turns retrying off.
    public var maxRetries: Int = 2
    /// The first wait.
    public var baseDelay: Duration = .milliseconds(300)
    /// The longest computed wait.
    public var maxDelay: Duration = .seconds(5)
    /// The fraction of each wait taken off at random, 0...1.
    public var jitter: Double = 0.5
    /// The longest `Retry-After` honoured; a longer one is cut to this.
    public var maxRetryAfter: Duration = .seconds(60)

    /// A policy retrying each transient failure at most `maxRetries` times.
    public init(maxRetries: Int = 2) { self.maxRetries = maxRetries }

    /// Never retry.
    public static let none = RetryPolicy(maxRetries: 0)

    /// Statuses worth another try.
    public static let transientStatuses: Set<Int> = [429, 502, 503, 504]

    /// Whether `error` is worth another try.
    public static func isTransient(_ error: RiffleError) -> Bool {
        switch error {
        case .timedOut, .stalled: true
        // Cut by the connection or the clock; an answer whose JSON stops with no fault seen would come so again.
        case .cutShort(_, _, _, let ending): ending != .midJSON
        case .cannotConnect(_, let reason): reason == RiffleError.connectionLostReason
        default: false
        }
    }

    /// The wait before retry `attempt` (0-based), given the answer's `Retry-After` value if any.
    public func delay(beforeRetry attempt: Int, retryAfter: String? = nil, now: Date = Date(),
                      random: Double = Double.random(in: 0...1)) -> Duration {
        if let retryAfter, let wait = Self.parseRetryAfter(retryAfter, now: now) { return min(wait, maxRetryAfter) }
        let exponential = baseDelay * (1 << min(attempt, 20))
        let capped = min(exponential, maxDelay)
        return capped - capped * (jitter * random)
    }

    /// A `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP date; nil when unreadable.
    public static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .milliseconds(max(0, Int((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }
}
