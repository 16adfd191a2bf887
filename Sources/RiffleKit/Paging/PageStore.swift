import Foundation

/// The pages of one feed on disk: `<root>/feeds/<feed-id>/feed_<page>.json` holds the exact bytes the
/// server sent. This type is the one place that layout is spelled: the loader, the cache (which
/// keeps each page as a body its owner named, `BodyLocation.named`) and `riffle` ask it. What Riffle knows about a page (its URL and next link, fetch time, status,
/// validators) is in its row of the cache's index, written in the same commit as the file, so a
/// page's bytes and its metadata always agree (see `DiskCache`).
///
/// A store reads through a connection to the index of its own (shared by its copies), so it can be
/// read from any thread: the browser paints its first frame from it before the loader's actor runs.
/// Files are 0600, folders 0700.
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
    let index: PageIndex

    /// - Parameters:
    ///   - cacheDirectory: Riffle's cache root (`~/.cache/riffle`).
    ///   - feedID: the feed's stable hash (`Feed.id`); never text from a server.
    package init(cacheDirectory: URL, feedID: String) {
        self.init(cacheDirectory: cacheDirectory, feedID: feedID, log: { _ in })
    }

    /// - Parameter log: told about damaged entries found (and removed) while reading.
    init(cacheDirectory: URL, feedID: String, log: @escaping @Sendable (String) -> Void) {
        directory = Self.feedsDirectory(cacheDirectory).appendingPathComponent(feedID, isDirectory: true)
        self.feedID = feedID
        let path = directory.path
        folderPath = path.hasSuffix("/") ? path : path + "/"
        index = PageIndex(root: cacheDirectory, log: log)
    }

    /// The folder under the cache root that holds one folder per feed.
    static let feedsFolder = "feeds"

    /// `<cacheDirectory>/feeds`: where every feed's folder is.
    package static func feedsDirectory(_ cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent(feedsFolder, isDirectory: true)
    }

    /// The ids of the feeds with a folder of pages under `cacheDirectory`.
    package static func feedIDs(in cacheDirectory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: feedsDirectory(cacheDirectory).path)) ?? []
        return names.filter { CachePath("\(feedsFolder)/\($0)/\(fileName(1))") != nil }.sorted()
    }

    /// `feed_<page>.json`.
    static func fileName(_ page: Int) -> String { "feed_\(page).json" }

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
    /// The page's path in the index; nil for a feed id or number the cache would never write.
    func path(_ page: Int) -> CachePath? { CachePath(relativePath(page)) }

    /// Where the cache keeps `page`'s body: its file, owned by the feed; `note` is what its row keeps beside it.
    func location(_ page: Int, note: @escaping @Sendable (HTTPResponse) -> String?) -> BodyLocation {
        .named(path: relativePath(page), owner: feedID, note: note)
    }

    /// The stored bytes and metadata of `page`, or nil when it is not on disk as the index describes it.
    package func read(_ page: Int) -> (data: Data, metadata: Metadata?)? {
        stored(page).map { ($0.data, $0.metadata) }
    }

    /// `page` with its metadata and key; nil when absent, damaged or not the file its row describes.
    func stored(_ page: Int) -> Stored? {
        guard let path = path(page), let entry = index.withDisk({ $0.entry(at: path) }) ?? nil else { return nil }
        return Stored(data: entry.body, metadata: Self.metadata(entry.note, fetchedAt: entry.fetchedAt, status: entry.status,
                                                                etag: entry.etag, lastModified: entry.lastModified),
                      key: entry.key, serverMaxAge: entry.serverMaxAge)
    }

    /// `page`'s metadata alone, without reading its body; nil when absent or unreadable.
    package func readMetadata(_ page: Int) -> Metadata? {
        guard let path = path(page), let row = index.withDisk({ $0.row(at: path) }) ?? nil else { return nil }
        return Self.metadata(row.note, fetchedAt: Date(timeIntervalSince1970: row.fetchedAt), status: row.status,
                             etag: row.etag, lastModified: row.lastModified)
    }

    /// Replaces `page` with `data`, as if it had been fetched from `metadata.url` with a plain GET
    /// (no credentials): for tools and tests. Waits up to 2 s for another program's lock on the
    /// index, blocking the calling thread.
    package func write(_ page: Int, data: Data, metadata: Metadata) throws(RiffleError) {
        guard path(page) != nil, let url = URL(string: metadata.url) else {
            throw .storage(path: bodyPath(page), reason: "not a page the cache can keep")
        }
        let note = Self.note(url: metadata.url, next: metadata.next)
        let entry = CacheEntry(key: CacheKey(HTTPRequest(url: url)), status: metadata.status, headers: ["content-type": "application/json"],
                               body: data, fetchedAt: metadata.fetchedAt, etag: metadata.etag, lastModified: metadata.lastModified,
                               serverMaxAge: nil, vary: "", owner: feedID)
        let stored = try index.withDisk(create: true) { disk throws(RiffleError) -> Bool in
            let prepared = try disk.prepare(entry, at: location(page, note: { _ in note }), note: note)
            return try disk.commit(prepared, now: Date(), wait: 2_000) != nil
        }
        guard stored == true else { throw .storage(path: index.indexPath, reason: "locked by another program") }
    }

    /// Removes `page`, its row and its file. Waits up to 2 s for another program's lock on the index.
    package func remove(_ page: Int) {
        guard let path = path(page) else { return }
        _ = try? index.withDisk { disk throws(RiffleError) in try disk.remove(at: path, wait: 2_000) }
    }

    /// The page numbers the index holds for this feed, in order.
    package func storedPages() -> [Int] {
        (index.withDisk { $0.paths(owner: feedID) } ?? []).compactMap { Self.pageNumber($0.name) }.sorted()
    }

    /// What a page's row keeps beside the index's own columns: its URL and next link, one line of JSON.
    static func note(url: String, next: String?) -> String {
        var out = "{"
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
        guard let note, let value = try? JSONParser.parse(Data(note.utf8)), let url = value["url"]?.stringValue else { return nil }
        return Metadata(url: url, fetchedAt: fetchedAt, status: status, etag: etag, lastModified: lastModified, next: value["next"]?.stringValue)
    }
}

extension ResponseCache {
    /// Removes one feed's pages (`Feed.id`): the entries the feed owns, and their files.
    public func removeFeed(_ feedID: String) async throws(RiffleError) {
        try await removeAll(owner: feedID)
    }
}
