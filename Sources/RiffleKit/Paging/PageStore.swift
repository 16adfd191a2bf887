import Foundation

/// The pages of one feed on disk: `<root>/feeds/<feed-id>/feed_<page>.json` holds the exact bytes the
/// server sent and `feed_<page>.meta.json` what Riffle knows about them.
///
/// Files are written atomically (a temporary file in the same folder, renamed over the old one; see
/// `AtomicFile`), so a crash leaves either the old file or the new one. Folders are created with mode
/// 0700 and files with 0600.
public struct PageStore: Sendable {
    /// What Riffle keeps beside each page. Times are Riffle's own: on Linux a file's "creation date"
    /// is really its last status change.
    public struct Metadata: Sendable, Equatable, Codable {
        public var url: String
        public var fetchedAt: Date
        public var status: Int
        public var etag: String?
        public var lastModified: String?
        /// The URL of the next page when the response said it (a cursor or a `Link` header), so moving
        /// forward from a stored page works offline. Never holds request headers.
        public var next: String?
        /// Who the bytes were fetched for: the cache key of the request (a SHA-256 of its method, its
        /// URL as sent and its credentials' digests), so a page fetched with one token is never served
        /// for another. nil in files written before Riffle recorded it.
        public var key: String?

        public init(url: String, fetchedAt: Date, status: Int, etag: String? = nil, lastModified: String? = nil, next: String? = nil,
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

    /// The feed's folder.
    public let directory: URL

    /// The folder's path with a trailing slash: file paths are made by appending a name, which costs
    /// far less than `URL.appendingPathComponent` on every lookup.
    private let folderPath: String

    /// - Parameters:
    ///   - cacheDirectory: Riffle's cache root (`~/.cache/riffle`).
    ///   - feedID: the feed's stable hash (`Feed.id`); never text from a server.
    public init(cacheDirectory: URL, feedID: String) {
        directory = cacheDirectory.appendingPathComponent("feeds", isDirectory: true)
            .appendingPathComponent(feedID, isDirectory: true)
        let path = directory.path
        folderPath = path.hasSuffix("/") ? path : path + "/"
    }

    public func bodyURL(_ page: Int) -> URL { URL(fileURLWithPath: bodyPath(page), isDirectory: false) }
    public func metadataURL(_ page: Int) -> URL { URL(fileURLWithPath: metadataPath(page), isDirectory: false) }
    func bodyPath(_ page: Int) -> String { folderPath + "feed_\(page).json" }
    func metadataPath(_ page: Int) -> String { folderPath + "feed_\(page).meta.json" }

    /// The stored bytes and metadata of `page`, or nil when it is not on disk.
    public func read(_ page: Int) -> (data: Data, metadata: Metadata?)? {
        guard let data = FileManager.default.contents(atPath: bodyPath(page)) else { return nil }
        let metadata = FileManager.default.contents(atPath: metadataPath(page)).flatMap(Self.decodeMetadata)
        return (data, metadata)
    }

    /// `page`'s metadata alone, without reading its body; nil when absent or unreadable.
    public func readMetadata(_ page: Int) -> Metadata? {
        FileManager.default.contents(atPath: metadataPath(page)).flatMap(Self.decodeMetadata)
    }

    /// Replaces `page` with `data`, atomically.
    public func write(_ page: Int, data: Data, metadata: Metadata) throws(RiffleError) {
        try Self.makeDirectory(directory)
        try AtomicFile.write(data, to: bodyURL(page))
        try AtomicFile.write(Self.encodeMetadata(metadata), to: metadataURL(page))
    }

    /// Removes `page` (used when a stored file turns out to be corrupt).
    public func remove(_ page: Int) {
        try? FileManager.default.removeItem(at: bodyURL(page))
        try? FileManager.default.removeItem(at: metadataURL(page))
    }

    /// The page numbers on disk, in order.
    public func storedPages() -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix("feed_"), name.hasSuffix(".json"), !name.hasSuffix(".meta.json") else { return nil }
            return Int(name.dropFirst(5).dropLast(5))
        }.sorted()
    }

    /// Creates `url` and any missing parents with mode 0700.
    public static func makeDirectory(_ url: URL) throws(RiffleError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage(path: url.path, reason: RiffleError.oneLine(error.localizedDescription))
        }
    }

    /// Metadata as one line of JSON, keys sorted (JSONEncoder costs more than writing the file).
    static func encodeMetadata(_ metadata: Metadata) -> Data {
        var out = "{"
        func member(_ key: String, _ text: String?, quoted: Bool = true) {
            guard let text else { return }
            if out.count > 1 { out += "," }
            out += "\"\(key)\":"
            if quoted { JSONWriter.writeString(text, into: &out) } else { out += text }
        }
        member("etag", metadata.etag)
        member("fetchedAt", "\(metadata.fetchedAt.timeIntervalSince1970)", quoted: false)
        member("key", metadata.key)
        member("lastModified", metadata.lastModified)
        member("next", metadata.next)
        member("status", "\(metadata.status)", quoted: false)
        member("url", metadata.url)
        return Data((out + "}").utf8)
    }

    // Metadata is read on every disk hit: use the fast parser rather than JSONDecoder.
    static func decodeMetadata(_ data: Data) -> Metadata? {
        guard let value = try? JSONParser.parse(data), let url = value["url"]?.stringValue,
              let fetched = value["fetchedAt"]?.doubleValue, fetched.isFinite,
              let status = value["status"]?.doubleValue, let code = Int(exactly: status) else { return nil }
        return Metadata(url: url, fetchedAt: Date(timeIntervalSince1970: fetched), status: code,
                        etag: value["etag"]?.stringValue, lastModified: value["lastModified"]?.stringValue,
                        next: value["next"]?.stringValue, key: value["key"]?.stringValue)
    }
}
