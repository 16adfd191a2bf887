import Foundation

/// The names of one feed's pages on disk: `<root>/feeds/<feed-id>/feed_<page>.json` holds the exact
/// bytes the server sent. This value is the one place that layout is spelled; it opens no file. The
/// cache owns the files and their rows (`ResponseCache`, which keeps each page as a body its owner
/// named): the loader stores pages through it and reads them back through its `reader`, `riffle`
/// asks it too. What Riffle knows about a page (its URL and next link, fetch time, status,
/// validators) is in its row of the cache's index, written in the same commit as the file, so a
/// page's bytes and its metadata always agree.
package struct PageStore: Sendable {
    /// What Riffle keeps about a page. Times are Riffle's own: on Linux a file's "creation date" is
    /// really its last status change.
    package struct Metadata: Sendable, Equatable, Codable {
        /// The URL the page was fetched from (credentials left as `${NAME}` references).
        package var url: String
        /// When the server sent the page.
        package var fetchedAt: Date
        /// The HTTP status of that answer.
        package var status: Int
        /// The answer's `ETag`, for revalidation.
        package var etag: String?
        /// The answer's `Last-Modified`, for revalidation.
        package var lastModified: String?
        /// The URL of the next page when the response said it (a cursor or a `Link` header), so moving
        /// forward from a stored page works offline. Never holds request headers.
        package var next: String?
        /// Whether the answer's headers said the page is the feed's last (`X-WP-TotalPages`...),
        /// which its body alone cannot tell.
        package var last: Bool?
        /// Where the answer came from when a redirect led to another origin or path than `url`
        /// (secrets redacted, as the answer was): what the page's relative links are read against.
        package var answeredFrom: String?
        /// Who the bytes were fetched for: the cache key of the request (a SHA-256 of its method, its
        /// URL as sent and its credentials' digests), so a page fetched with one token is never served
        /// for another. nil in files written before Riffle recorded it.
        package var key: String?

        /// Metadata of a page fetched from `url` at `fetchedAt`.
        package init(url: String, fetchedAt: Date, status: Int, etag: String? = nil, lastModified: String? = nil, next: String? = nil,
                    key: String? = nil) {
            self.url = url
            self.fetchedAt = fetchedAt
            self.status = status
            self.etag = etag
            self.lastModified = lastModified
            self.next = next
            self.key = key
        }

        /// What the page's relative links (items', next links) are read against: where the answer
        /// came from (RFC 3986 §5.1.3), else the URL asked.
        package var baseURL: URL? { answeredFrom.flatMap { URL(string: $0) } ?? URL(string: url) }
    }

    /// A stored page as the index describes it.
    struct Stored {
        var data: Data
        var metadata: Metadata?
        /// The cache key of the request it answers: a page is used only for the same request (the
        /// same URL and credentials).
        var key: CacheKey
        /// The server's freshness lifetime, nil when it said nothing.
        var serverMaxAge: TimeInterval?
    }

    /// The feed's folder.
    package let directory: URL
    let feedID: String
    /// The folder's path with a trailing slash: file paths are made by appending a name, which costs
    /// far less than `URL.appendingPathComponent` on every lookup.
    private let folderPath: String

    /// - Parameters:
    ///   - cacheDirectory: Riffle's cache root (`~/.cache/riffle`).
    ///   - feedID: the feed's stable hash (`Feed.id`); never text from a server.
    package init(cacheDirectory: URL, feedID: String) {
        directory = Self.feedsDirectory(cacheDirectory).appendingPathComponent(feedID, isDirectory: true)
        self.feedID = feedID
        let path = directory.path
        folderPath = path.hasSuffix("/") ? path : path + "/"
    }

    /// The folder under the cache root that holds one folder per feed.
    static let feedsFolder = "feeds"

    /// `<cacheDirectory>/feeds`: where every feed's folder is.
    package static func feedsDirectory(_ cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent(feedsFolder, isDirectory: true)
    }

    /// `feed_<page>.json`.
    static func fileName(_ page: Int) -> String { "feed_\(page).json" }

    /// Whether `name` is a page file's name (`feed_<page>.json`): the names in a feed's folder that
    /// Riffle writes, and so the only ones the cache may delete there without a row naming them.
    package static let isPageFile: @Sendable (String) -> Bool = { pageNumber($0) != nil }

    /// `feed_12.json` → 12; nil for any other name.
    static func pageNumber(_ name: String) -> Int? {
        guard name.hasPrefix("feed_"), name.hasSuffix(".json") else { return nil }
        let digits = name.dropFirst(5).dropLast(5)
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(digits)
    }

    /// The file holding `page`.
    package func bodyURL(_ page: Int) -> URL { URL(fileURLWithPath: bodyPath(page), isDirectory: false) }
    func bodyPath(_ page: Int) -> String { folderPath + Self.fileName(page) }
    /// The page's path relative to the cache root, as the index keeps it: `feeds/<feed-id>/feed_<page>.json`.
    func relativePath(_ page: Int) -> String { "\(Self.feedsFolder)/\(feedID)/\(Self.fileName(page))" }
    /// The cache, keeping `page`'s body in its file, owned by the feed; `note` is what its row keeps beside it.
    func target(_ page: Int, in cache: ResponseCache, note: @escaping @Sendable (HTTPResponse) -> String?) -> CacheTarget {
        cache.target(named: relativePath(page), owner: feedID, note: note)
    }

    /// Whether anything is in `page`'s place (looked at through `reader`: no actor, no index): a
    /// page with nothing there is not stored.
    func holds(_ page: Int, in reader: ResponseCache.Reader) -> Bool {
        reader.holds(named: relativePath(page))
    }

    /// `page` as the cache keeps it, read through `reader` (no actor); nil when absent, damaged or
    /// not the file its row describes.
    func stored(_ page: Int, in reader: ResponseCache.Reader) -> Stored? {
        guard let entry = reader.body(named: relativePath(page)), let data = entry.body else { return nil }
        return Stored(data: data, metadata: Self.metadata(entry.note, fetchedAt: entry.fetchedAt, status: entry.status,
                                                          etag: entry.etag, lastModified: entry.lastModified),
                      key: entry.key, serverMaxAge: entry.serverMaxAge)
    }

    /// What reading `page` with the record kept on its file found (`ResponseCache.Reader.recordedBody`).
    enum RecordedRead {
        /// The page as its file's record describes it, and the check to make against the index later.
        case page(Stored, RecordCheck)
        /// A file without a record: only the index can say what it is.
        case unrecorded
    }

    /// `page` from its file and the record kept on it, without the index; nil when absent.
    func recorded(_ page: Int, in reader: ResponseCache.Reader) -> RecordedRead? {
        switch reader.recordedBody(named: relativePath(page)) {
        case .body(let entry, let check)?:
            guard let data = entry.body else { return .unrecorded }
            let stored = Stored(data: data, metadata: Self.metadata(entry.note, fetchedAt: entry.fetchedAt, status: entry.status,
                                                                    etag: entry.etag, lastModified: entry.lastModified),
                                key: entry.key, serverMaxAge: entry.serverMaxAge)
            return .page(stored, check)
        case .unrecorded?: return .unrecorded
        case nil: return nil
        }
    }

    /// Whether the index still describes `page` as `check` says it was read.
    func confirms(_ page: Int, _ check: RecordCheck, in reader: ResponseCache.Reader) -> Bool {
        reader.confirms(named: relativePath(page), check)
    }

    /// `page`'s bytes and metadata as the cache keeps them, through `reader`; nil when not stored.
    package func read(_ page: Int, in reader: ResponseCache.Reader) -> (data: Data, metadata: Metadata?)? {
        stored(page, in: reader).map { ($0.data, $0.metadata) }
    }

    /// `page`'s metadata alone, from its row, without reading its body; nil when absent or unreadable.
    package func metadata(_ page: Int, in reader: ResponseCache.Reader) -> Metadata? {
        guard let row = reader.record(named: relativePath(page)) else { return nil }
        return Self.metadata(row.note, fetchedAt: row.fetchedAt, status: row.status, etag: row.etag, lastModified: row.lastModified)
    }

    /// The page numbers the cache holds for this feed, in order.
    package func pages(in reader: ResponseCache.Reader) -> [Int] {
        reader.names(owner: feedID).compactMap { path in
            path.hasPrefix("\(Self.feedsFolder)/\(feedID)/") ? Self.pageNumber(String(path.split(separator: "/").last ?? "")) : nil
        }.sorted()
    }

    /// What a page's row keeps beside the index's own columns: its URL, where a redirect led it
    /// (`Metadata.answeredFrom`), its next link, and whether its headers said it is the last, one line
    /// of JSON.
    static func note(url: String, next: String?, last: Bool = false, answeredFrom: String? = nil) -> String {
        var out = last ? "{\"last\":true," : "{"
        if let answeredFrom {
            out += "\"answeredFrom\":"
            JSONWriter.writeString(answeredFrom, into: &out)
            out += ","
        }
        if let next {
            out += "\"next\":"
            JSONWriter.writeString(next, into: &out)
            out += ","
        }
        out += "\"url\":"
        JSONWriter.writeString(url, into: &out)
        return out + "}"
    }

    /// The metadata from a row's columns and its note; nil without a note naming the URL.
    static func metadata(_ note: String?, fetchedAt: Date, status: Int, etag: String?, lastModified: String?) -> Metadata? {
        // Read from the tape, as `JSONValue`'s subscript reads (the last of duplicated keys), without building one.
        guard let note, let document = try? JSONDocument(Data(note.utf8)) else { return nil }
        let (url, next, last, answeredFrom) = document.withReader { (r: TapeReader) -> (String?, String?, Bool, String?) in
            func text(_ key: String) -> String? { r.member(of: 0, named: key).flatMap { r.kind($0) == .string ? r.string($0) : nil } }
            return (text("url"), text("next"), r.member(of: 0, named: "last").map { r.kind($0) == .true } ?? false, text("answeredFrom"))
        }
        guard let url else { return nil }
        var metadata = Metadata(url: url, fetchedAt: fetchedAt, status: status, etag: etag, lastModified: lastModified, next: next)
        if last { metadata.last = true }
        metadata.answeredFrom = answeredFrom
        return metadata
    }
}
