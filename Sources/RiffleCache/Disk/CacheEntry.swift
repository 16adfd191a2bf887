import Foundation
import RiffleHTTP
import RiffleStorage

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
    /// The owner that named the body's place (`BodyLocation.named`), else nil. The cache only groups
    /// and removes entries by it.
    var owner: String?
    /// What the body's owner keeps about it in the same row (a page: its URL and next link), written
    /// with the body in one commit.
    var note: String?
    /// Random per store: a 304 renews only the version it revalidated, never one another process
    /// wrote in the meantime. 0 until stored.
    var version: Int64 = 0

    var size: Int { body.count }

    init(key: CacheKey, status: Int, headers: [String: String], body: Data, fetchedAt: Date, etag: String? = nil,
                 lastModified: String? = nil, serverMaxAge: TimeInterval? = nil, vary: String = "", owner: String? = nil,
                 note: String? = nil, version: Int64 = 0) {
        self.key = key
        self.status = status
        self.headers = headers
        self.body = body
        self.fetchedAt = fetchedAt
        self.etag = etag
        self.lastModified = lastModified
        self.serverMaxAge = serverMaxAge
        self.vary = vary
        self.owner = owner
        self.note = note
        self.version = version
    }

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
    /// Inline in the index when small, else a file under `responses/` named by the cache.
    case automatic
    /// The exact bytes at `path`, which the caller names: `<folder>/<owner>/<name>` relative to the
    /// cache root, three plain names (see `CachePath`), `owner` being the tag the entry is grouped and
    /// removed by (`ResponseCache.removeAll(owner:)`). `note` makes what the owner keeps in the same
    /// row from the answer, just before it is stored.
    case named(path: String, owner: String, note: @Sendable (HTTPResponse) -> String?)
}
