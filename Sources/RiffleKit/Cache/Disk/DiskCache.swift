import Foundation

/// The disk tier: an SQLite index (`responses/index.sqlite`) with one row per entry, small bodies
/// inline in the row, larger ones in `responses/<key>-<nonce>.body`, pages in their `feed_<page>.json`.
///
/// Body files are written atomically under a fresh name and the row is switched to them in one
/// transaction, so two processes writing the same key never tear a file nor point a row at another
/// process's half-written body. A row whose body is missing or has the wrong size is a miss: removed
/// and logged.
final class DiskCache {
    let root: URL
    let responses: URL
    let sizeLimit: Int
    let inlineLimit: Int
    let log: @Sendable (String) -> Void
    var database: SQLiteDatabase

    static let columns = "key, feed, path, body, size, fetched_at, last_access, etag, last_modified, max_age, status, headers, vary"

    init(root: URL, sizeLimit: Int, inlineLimit: Int, log: @escaping @Sendable (String) -> Void) throws(RiffleError) {
        self.root = root
        responses = Self.folder(root)
        self.sizeLimit = sizeLimit
        self.inlineLimit = inlineLimit
        self.log = log
        try PageStore.makeDirectory(responses)
        database = try Self.open(responses, log: log)
    }

    /// The entry for `key`, touching its last access; nil on a miss or a damaged entry.
    func read(_ key: CacheKey, now: Date) -> CacheEntry? {
        guard let row = guarded({ () throws(SQLiteError) in
            try database.execute("SELECT \(Self.columns) FROM entries WHERE key = ?", [.text(key.id)]).first
        }) ?? nil else { return nil }
        let path = row[2].text
        let size = row[4].int ?? -1
        let body: Data? = if let path { FileManager.default.contents(atPath: root.appendingPathComponent(path).path) } else { row[3].blob }
        guard let body, body.count == size,
              let headers = (try? JSONSerialization.jsonObject(with: Data((row[11].text ?? "").utf8))) as? [String: String] else {
            log("removed damaged cache entry \(key)\(path.map { " (\($0))" } ?? "")")
            remove(key)
            return nil
        }
        _ = guarded { () throws(SQLiteError) in
            try database.execute("UPDATE entries SET last_access = ? WHERE key = ?", [.real(now.timeIntervalSince1970), .text(key.id)])
        }
        return CacheEntry(key: key, status: row[10].int ?? 200, headers: headers, body: body,
                          fetchedAt: Date(timeIntervalSince1970: row[5].double ?? 0), etag: row[7].text,
                          lastModified: row[8].text, serverMaxAge: row[9].double, vary: row[12].text ?? "", feed: row[1].text)
    }

    /// Stores `entry`, replacing any previous one, then evicts down to the size limit.
    /// - Returns: the keys evicted, so the memory tier can drop them too.
    @discardableResult
    func write(_ entry: CacheEntry, at location: BodyLocation, now: Date, writeBody: Bool = true) throws(RiffleError) -> [CacheKey] {
        var path: String?
        var inline: SQLiteValue = .null
        var feed: String?
        switch location {
        case .page(let pagePath, let feedID):
            path = pagePath
            feed = feedID
        case .automatic where entry.size <= inlineLimit:
            inline = .blob(entry.body)
        case .automatic:
            path = "responses/\(entry.key.id)-\(UUID().uuidString.prefix(8).lowercased()).body"
        }
        if let path, writeBody {
            let url = root.appendingPathComponent(path)
            try PageStore.makeDirectory(url.deletingLastPathComponent())
            try AtomicFile.write(entry.body, to: url)
        }
        let safeHeaders = entry.headers.filter { !CacheEntry.privateHeaders.contains($0.key) }
        let headerText = (try? JSONSerialization.data(withJSONObject: safeHeaders, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let row: [SQLiteValue] = [
            .text(entry.key.id), feed.map(SQLiteValue.text) ?? .null, path.map(SQLiteValue.text) ?? .null, inline,
            .int(Int64(entry.size)), .real(entry.fetchedAt.timeIntervalSince1970), .real(now.timeIntervalSince1970),
            entry.etag.map(SQLiteValue.text) ?? .null, entry.lastModified.map(SQLiteValue.text) ?? .null,
            entry.serverMaxAge.map(SQLiteValue.real) ?? .null, .int(Int64(entry.status)), .text(headerText), .text(entry.vary),
        ]
        let oldPath = guarded { () throws(SQLiteError) -> String? in
            try database.transaction { () throws(SQLiteError) -> String? in
                let old = try database.execute("SELECT path FROM entries WHERE key = ?", [.text(entry.key.id)]).first?[0].text
                try database.execute("INSERT OR REPLACE INTO entries (\(Self.columns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", row)
                return old
            }
        } ?? nil
        if let oldPath, oldPath != path { removeBodyFile(oldPath) }
        return evict(now: now)
    }

    /// Marks `key` as confirmed by the server (a 304): new fetch time and freshness, same body.
    func renew(_ key: CacheKey, fetchedAt: Date, serverMaxAge: TimeInterval?, etag: String?, lastModified: String?) {
        _ = guarded { () throws(SQLiteError) in
            try database.execute("""
                UPDATE entries SET fetched_at = ?, last_access = ?, max_age = ?, etag = COALESCE(?, etag),
                last_modified = COALESCE(?, last_modified) WHERE key = ?
                """, [.real(fetchedAt.timeIntervalSince1970), .real(fetchedAt.timeIntervalSince1970),
                      serverMaxAge.map(SQLiteValue.real) ?? .null, etag.map(SQLiteValue.text) ?? .null,
                      lastModified.map(SQLiteValue.text) ?? .null, .text(key.id)])
        }
    }

    /// Removes `key`'s row and body.
    func remove(_ key: CacheKey) {
        let path = guarded { () throws(SQLiteError) -> String? in
            try database.transaction { () throws(SQLiteError) -> String? in
                let old = try database.execute("SELECT path FROM entries WHERE key = ?", [.text(key.id)]).first?[0].text
                try database.execute("DELETE FROM entries WHERE key = ?", [.text(key.id)])
                return old
            }
        } ?? nil
        if let path { removeBodyFile(path) }
    }

    func removeBodyFile(_ path: String) {
        let url = root.appendingPathComponent(path)
        try? FileManager.default.removeItem(at: url)
        // A page's metadata goes with its body, so PageStore never sees half a page.
        if path.hasSuffix(".json") { try? FileManager.default.removeItem(at: url.deletingPathExtension().appendingPathExtension("meta.json")) }
    }
}
