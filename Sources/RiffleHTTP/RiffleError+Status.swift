import Foundation

extension RiffleError {
    /// The error for `response`, whose status is outside 200...299: the status and the start of the
    /// body, and, when the server said how long to stay away, that first ("try again in 30m; ...").
    ///
    /// A quota's end is what a person needs to know about a refusal: GitHub's 403 "API rate limit
    /// exceeded" and a 429's body rarely say it, their headers do (`Retry-After` on a 429 or 503,
    /// `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset` or `RateLimit-Reset`).
    package static func status(of response: HTTPResponse, now: Date = Date()) -> RiffleError {
        let excerpt = excerpt(response.body)
        guard let wait = waitAsked(by: response, now: now) else { return .httpStatus(code: response.status, excerpt: excerpt) }
        let note = waitPrefix + waitText(seconds: wait)
        return .httpStatus(code: response.status, excerpt: excerpt.isEmpty ? note : note + "; " + excerpt)
    }

    /// Whole seconds (at least 1) until `response` says to ask again, or nil when it says nothing
    /// readable, a time already past, or more than a year (a server's mistake, not a wait).
    static func waitAsked(by response: HTTPResponse, now: Date) -> Int? {
        var seconds: Double?
        if response.status == 429 || response.status == 503, let value = response.header("retry-after"),
           let wait = RetryPolicy.parseRetryAfter(value, now: now) {
            seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        } else if response.header("x-ratelimit-remaining")?.trimmingCharacters(in: .whitespaces) == "0"
                    || response.header("ratelimit-remaining")?.trimmingCharacters(in: .whitespaces) == "0" {
            if let reset = response.header("x-ratelimit-reset").flatMap(number) {
                // Unix seconds (GitHub, Twitter, Discord's with a fraction); a small number is a count of seconds.
                seconds = reset > 1_000_000_000 ? reset - now.timeIntervalSince1970 : reset
            } else if let reset = response.header("ratelimit-reset").flatMap(number) {
                seconds = reset
            }
        }
        guard let seconds, seconds > 0, seconds <= 365 * 86_400 else { return nil }
        return Int(seconds.rounded(.up))
    }

    /// `seconds` in the largest unit that fits, rounded up so that nobody comes back too soon:
    /// "45s", "30m", "1h 30m", "3d".
    static func waitText(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        let minutes = (seconds + 59) / 60
        switch minutes {
        case ..<60: return "\(minutes)m"
        case ..<2_880: return minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h \(minutes % 60)m"
        default: return "\((minutes + 1_439) / 1_440)d"
        }
    }

    /// How long the server asked to be left alone, as `status(of:)` wrote it at the start of the
    /// error ("try again in 1h 30m"), in seconds; nil for any other error. What a watch waits before
    /// it asks again, rather than spending a used-up quota every interval.
    package var waitAsked: TimeInterval? {
        guard case .httpStatus(_, let excerpt) = self, excerpt.hasPrefix(Self.waitPrefix) else { return nil }
        var seconds = 0
        for part in excerpt.dropFirst(Self.waitPrefix.count).prefix(while: { $0 != ";" }).split(separator: " ") {
            guard let unit = part.last, let count = Int(part.dropLast()), count >= 0 else { return nil }
            switch unit {
            case "s": seconds += count
            case "m": seconds += count * 60
            case "h": seconds += count * 3_600
            case "d": seconds += count * 86_400
            default: return nil
            }
        }
        return seconds > 0 ? TimeInterval(seconds) : nil
    }

    private static let waitPrefix = "try again in "

    private static func number(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
    }
}
