import Foundation

/// How long a stored answer may be reused without asking the server.
///
/// ```swift
/// let lifetime: CacheLifetime = .server(fallback: 180)  // RFC 9111; 3 minutes when the server is silent
/// let appWins: CacheLifetime = .fixed(300)              // 5 minutes, whatever the server's headers say
/// ```
public enum CacheLifetime: Sendable, Hashable {
    /// RFC 9111: the server's `Cache-Control` (`max-age`, `no-cache`, `no-store`) and `Expires` decide;
    /// `fallback` seconds apply only when it says nothing (a heuristic freshness, RFC 9111 §4.2.2).
    /// nil: such an answer is stale at once and revalidated before use.
    case server(fallback: TimeInterval?)
    /// These seconds, whatever the server says, `no-store`, `no-cache` and `max-age=0` included: a
    /// deliberate departure from RFC 9111, for APIs whose headers forbid caching answers the app knows
    /// it may keep (Spring's default is `no-cache, no-store, max-age=0` on everything).
    case fixed(TimeInterval)

    /// Whether an answer fetched at `fetchedAt`, whose headers allowed `serverMaxAge` (nil: they said
    /// nothing), may be reused at `now`.
    func isFresh(fetchedAt: Date, serverMaxAge: TimeInterval?, now: Date) -> Bool {
        now < expiry(fetchedAt: fetchedAt, serverMaxAge: serverMaxAge)
    }

    /// When an answer fetched at `fetchedAt` stops being fresh.
    package func expiry(fetchedAt: Date, serverMaxAge: TimeInterval?) -> Date {
        let seconds: TimeInterval = switch self {
        case .server(let fallback): serverMaxAge ?? fallback ?? 0
        case .fixed(let seconds): seconds
        }
        return fetchedAt.addingTimeInterval(seconds)
    }

    /// Whether an answer is kept although its headers say `no-store` (or `Vary: *`).
    package var overridesServer: Bool { if case .fixed = self { true } else { false } }
}

/// Whose cache time wins when the server's caching headers and the app's `maxAge` disagree.
public enum MaxAgePrecedence: Sendable, Hashable {
    /// The server's, as RFC 9111 has it: its `max-age`, `no-cache`, `no-store` and `Expires` win, and the
    /// app's time applies when it says nothing. The default.
    case server
    /// The app's: `maxAge` wins over anything the server says, `no-store` included (`CacheLifetime.fixed`).
    /// A deliberate departure from RFC 9111; off unless asked for.
    case app
}


