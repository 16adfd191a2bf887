import Foundation
import RiffleHTTP

/// What a response's headers say about caching it (RFC 9111 for a private cache).
struct Freshness: Equatable {
    /// False for `no-store` and `Vary: *`: the response is returned but never kept.
    var storable: Bool
    /// Seconds the server allows the response to be reused without asking (`max-age`, else
    /// `Expires` − `Date`), less the `Age` it arrived with (the time it spent in a shared cache on
    /// the way); `no-cache` gives 0. Nil when the server says nothing, so the request's own max age
    /// decides.
    var serverMaxAge: TimeInterval?

    init(headers: [String: String], now: Date) {
        let directives = Self.directives(headers["cache-control"] ?? "")
        storable = directives["no-store"] == nil && headers["vary"]?.trimmingCharacters(in: .whitespaces) != "*"
        if directives["no-cache"] != nil {
            serverMaxAge = 0
        } else if let value = directives["max-age"], let seconds = value.flatMap(TimeInterval.init) {
            serverMaxAge = max(0, seconds)
        } else if let expires = headers["expires"] {
            // An invalid date (e.g. "0") means already expired (RFC 9111 §5.3).
            guard let expiry = HTTPDate.parse(expires) else { serverMaxAge = 0; return }
            let served = headers["date"].flatMap(HTTPDate.parse) ?? now
            serverMaxAge = max(0, expiry.timeIntervalSince(served))
        } else {
            serverMaxAge = nil
        }
        // RFC 9111 §4.2.3: the answer is already `Age` seconds old (a CDN's copy). An `Age` that is
        // not a count of seconds is ignored (§5.1); one too large for an integer is older than any lifetime.
        if let lifetime = serverMaxAge, let text = headers["age"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty,
           text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let age = TimeInterval(text) {
            serverMaxAge = max(0, lifetime - age)
        }
    }

    /// `max-age=60, no-cache` → ["max-age": "60", "no-cache": nil]; names lowercased.
    static func directives(_ header: String) -> [String: String?] {
        var result: [String: String?] = [:]
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pair.first?.lowercased(), !name.isEmpty else { continue }
            result[name] = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : .some(nil)
        }
        return result
    }

}
