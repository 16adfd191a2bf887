import Foundation

extension DiskCache {
    static let schema = """
        CREATE TABLE IF NOT EXISTS entries (
            key TEXT PRIMARY KEY,          -- SHA-256 of method, canonical URL, body, credential digests
            feed TEXT,                     -- feed id for pages, else NULL
            path TEXT,                     -- body file relative to the cache root; NULL when inline
            body BLOB,                     -- small bodies only
            size INTEGER NOT NULL,         -- body bytes
            fetched_at REAL NOT NULL,      -- fetched or last confirmed by a 304 (Unix seconds)
            last_access REAL NOT NULL,     -- for LRU eviction
            etag TEXT,
            last_modified TEXT,
            max_age REAL,                  -- the server's freshness lifetime; NULL when it said nothing
            status INTEGER NOT NULL,
            headers TEXT NOT NULL,         -- JSON object, without Set-Cookie
            vary TEXT NOT NULL DEFAULT ''  -- digest of the request's Vary header values
        );
        CREATE INDEX IF NOT EXISTS entries_by_access ON entries (last_access);
        CREATE INDEX IF NOT EXISTS entries_by_feed ON entries (feed);
        """

    /// The `responses` folder under the cache root: the index and the bodies of other requests.
    static func folder(_ root: URL) -> URL { root.appendingPathComponent("responses", isDirectory: true) }

    /// The index database's path in the `responses` folder.
    static func indexPath(_ folder: URL) -> String { folder.appendingPathComponent("index.sqlite").path }

    /// Opens the index; a file that is not a database (or fails its check) is logged and replaced by an
    /// empty one. Busy or locked files are waited for inside `SQLiteDatabase`, never replaced.
    static func open(_ folder: URL, log: @Sendable (String) -> Void) throws(RiffleError) -> SQLiteDatabase {
        let path = indexPath(folder)
        do {
            return try openChecked(path)
        } catch where error.corrupt {
            log("cache index \(path) is damaged (\(error)); starting a new one")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            do { return try openChecked(path) } catch {
                throw .storage(path: path, reason: error.description)
            }
        } catch {
            throw .storage(path: path, reason: error.description)
        }
    }

    private static func openChecked(_ path: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        let check = try database.execute("PRAGMA quick_check").first?.first?.text ?? "ok"
        guard check == "ok" else { throw SQLiteError(code: 11, message: check) }  // SQLITE_CORRUPT
        for statement in schema.components(separatedBy: ";\n") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            try database.execute(statement)
        }
        return database
    }

    /// Runs an index operation; corruption found mid-use replaces the index (a miss, never a crash),
    /// other failures are logged and read as "nothing".
    func guarded<T>(_ body: () throws(SQLiteError) -> T) -> T? {
        do { return try body() } catch {
            log("cache index: \(error)")
            if error.corrupt, let fresh = try? Self.open(responses, log: log) {
                database = fresh
                removeOrphanBodies()
            }
            return nil
        }
    }

    /// Evicts least recently used entries until the total is under the size limit.
    func evict(now: Date) -> [CacheKey] {
        guard let total = guarded({ () throws(SQLiteError) in
            try database.execute("SELECT COALESCE(SUM(size), 0) FROM entries").first?[0].int ?? 0
        }), total > sizeLimit else { return [] }
        var excess = total - sizeLimit
        var evicted: [CacheKey] = []
        let rows = guarded { () throws(SQLiteError) in
            try database.execute("SELECT key, path, size FROM entries ORDER BY last_access ASC, rowid ASC LIMIT 1000")
        } ?? []
        for row in rows where excess > 0 {
            guard let id = row[0].text else { continue }
            remove(CacheKey(id: id))
            evicted.append(CacheKey(id: id))
            excess -= row[2].int ?? 0
        }
        return evicted
    }

    /// Total bytes, entry count and per-feed figures.
    func statistics() -> CacheStatistics {
        let totals = guarded { () throws(SQLiteError) in
            try database.execute("SELECT COALESCE(SUM(size), 0), COUNT(*) FROM entries").first
        } ?? nil
        let feeds = guarded { () throws(SQLiteError) in
            try database.execute("SELECT feed, SUM(size), COUNT(*) FROM entries WHERE feed IS NOT NULL GROUP BY feed ORDER BY feed")
        } ?? []
        return CacheStatistics(
            totalSize: totals?[0].int ?? 0, entryCount: totals?[1].int ?? 0, sizeLimit: sizeLimit,
            feeds: feeds.map { .init(feedID: $0[0].text ?? "", size: $0[1].int ?? 0, pageCount: $0[2].int ?? 0) })
    }

    /// Removes every entry and page; `feedID` limits it to one feed's pages.
    func removeAll(feedID: String? = nil) {
        let paths = guarded { () throws(SQLiteError) -> [String] in
            try database.transaction { () throws(SQLiteError) -> [String] in
                let condition = feedID == nil ? "" : " WHERE feed = ?"
                let bindings: [SQLiteValue] = feedID.map { [.text($0)] } ?? []
                let rows = try database.execute("SELECT path FROM entries" + condition, bindings)
                try database.execute("DELETE FROM entries" + condition, bindings)
                return rows.compactMap { $0[0].text }
            }
        } ?? []
        for path in paths { removeBodyFile(path) }
        // Pages written before the index knew them (or by an older Riffle) go too.
        let feeds = root.appendingPathComponent("feeds", isDirectory: true)
        try? FileManager.default.removeItem(at: feedID.map { feeds.appendingPathComponent($0, isDirectory: true) } ?? feeds)
        if feedID == nil { removeOrphanBodies() }
    }

    /// Deletes body files under `responses/` that no row points to (left by a crash or a new index).
    func removeOrphanBodies() {
        let known = Set((guarded { () throws(SQLiteError) in
            try database.execute("SELECT path FROM entries WHERE path LIKE 'responses/%'")
        } ?? []).compactMap { $0[0].text })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: responses.path)) ?? []
        for name in names where name.hasSuffix(".body") && !known.contains("responses/" + name) {
            try? FileManager.default.removeItem(at: responses.appendingPathComponent(name))
        }
    }
}
