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
    /// What the body's owner keeps about it in the same row (a page: its URL and next link), written
    /// with the body in one commit.
    var note: String?
    /// Random per store: a 304 renews only the version it revalidated, never one another process
    /// wrote in the meantime. 0 until stored.
    var version: Int64 = 0

    var size: Int { body.count }

    func isFresh(now: Date, lifetime: CacheLifetime) -> Bool {
        now < freshUntil(lifetime: lifetime)
    }

    /// The moment it stops being fresh under `lifetime`.
    func freshUntil(lifetime: CacheLifetime) -> Date {
        lifetime.expiry(fetchedAt: fetchedAt, serverMaxAge: serverMaxAge)
    }

    func value(_ source: CachedResponse.Source, url: URL, now: Date, lifetime: CacheLifetime) -> CachedResponse {
        var value = CachedResponse(response: HTTPResponse(status: status, headers: headers, body: body, url: url),
                                   source: source, fetchedAt: fetchedAt, age: max(0, now.timeIntervalSince(fetchedAt)))
        value.freshUntil = freshUntil(lifetime: lifetime)
        value.note = note
        return value
    }

    /// Headers that must never reach the disk.
    static let privateHeaders: Set<String> = ["set-cookie", "set-cookie2", "authorization"]
}

/// Where an entry's body is kept.
enum BodyLocation: Sendable {
    /// Inline in the index when small, else a file under `responses/`.
    case automatic
    /// A page: the exact bytes at `path` (relative to the cache root, `feeds/<id>/feed_3.json`).
    /// `note` makes what the owner keeps in the same row from the answer, just before it is stored.
    case page(path: String, feed: String, note: @Sendable (HTTPResponse) -> String?)
}
