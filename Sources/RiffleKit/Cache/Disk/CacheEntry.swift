import Foundation

/// One stored response with what the index knows about it.
struct CacheEntry: Sendable, Equatable {
    var key: CacheKey
    var status: Int
    /// Response headers, names lowercased, without `Set-Cookie` (a credential).
    var headers: [String: String]
    var body: Data
    var fetchedAt: Date
    var etag: String?
    var lastModified: String?
    /// What the server's `Cache-Control`/`Expires` allowed; nil when it said nothing.
    var serverMaxAge: TimeInterval?
    /// `CacheKey.varyFingerprint` of the request that produced it.
    var vary: String
    /// The feed whose page this is (its body is then that page's file), else nil.
    var feed: String?

    var size: Int { body.count }

    func isFresh(now: Date, requestMaxAge: TimeInterval?) -> Bool {
        Freshness.isFresh(fetchedAt: fetchedAt, serverMaxAge: serverMaxAge, requestMaxAge: requestMaxAge, now: now)
    }

    func value(_ source: CachedResponse.Source, url: URL, now: Date) -> CachedResponse {
        CachedResponse(response: HTTPResponse(status: status, headers: headers, body: body, url: url),
                       source: source, fetchedAt: fetchedAt, age: max(0, now.timeIntervalSince(fetchedAt)))
    }

    /// Headers that must never reach the disk.
    static let privateHeaders: Set<String> = ["set-cookie", "set-cookie2", "authorization"]
}

/// Where an entry's body is kept.
enum BodyLocation: Sendable, Equatable {
    /// Inline in the index when small, else a file under `responses/`.
    case automatic
    /// A page: the exact bytes at `path` (relative to the cache root, e.g. `feeds/<id>/feed_3.json`).
    case page(path: String, feed: String)
}
