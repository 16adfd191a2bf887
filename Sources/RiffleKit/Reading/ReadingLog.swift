import Foundation

/// What Riffle remembers of the items it has listed, feed by feed: whether each was seen, and its
/// text for search. One SQLite file in the cache folder (`reading.sqlite`, WAL), apart from the
/// pages, so it outlives their eviction and `riffle cache clear`.
///
/// The database is opened on first use, not when the log is made: a browser makes its log before
/// the first frame and uses it after. Every failure leaves the log empty rather than stopping the
/// browser; a file that is not a database is logged and replaced by an empty one, as the cache's
/// index is.
///
/// ```swift
/// let cache = FileManager.default.temporaryDirectory.appending(path: "riffle-example")
/// let log = ReadingLog(cacheDirectory: cache)
/// let hn = ReadingLog.FeedRef(id: "a1b2c3", name: "hn", title: "Hacker News")   // id: the feed's `Feed.id`
/// let items = [Item(id: "42", title: "Swift concurrency on Linux", details: [], url: nil, createdAt: nil, fields: ["id": "42"])]
/// try await log.record(items, feed: hn)
/// try await log.record([items[0]], feed: hn, seen: true)
/// let seen = try await log.seenKeys(feed: hn.id)            // ["id:42"]
/// let hits = try await log.search("swift concurrency")    // over every feed
/// ```
public actor ReadingLog {
    /// How a log behaves.
    public struct Configuration: Sendable {
        /// Items kept; past this the ones listed longest ago go first (their seen state with them).
        public var maxItems = 100_000
        /// Characters of an item's text kept for search.
        public var textLimit = 2_000
        /// Told about events worth a log line (a damaged file replaced).
        public var log: @Sendable (String) -> Void = { _ in }

        /// The defaults: see each property.
        public init() {}
    }

    /// A feed as the log knows it.
    public struct FeedRef: Sendable, Hashable {
        /// `Feed.id`: where its items are filed.
        public var id: String
        /// How it is opened again: a preset or feeds-file name (`hn`, `github:apple/swift`) or a URL template.
        public var name: String
        /// What the browser calls it (`Feed.name`); search results and `--feed` use it too.
        public var title: String

        /// A feed with these parts.
        public init(id: String, name: String, title: String) {
            self.id = id
            self.name = name
            self.title = title
        }
    }

    /// Why the log could not answer; one line.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, in one line.
        public var description: String
    }

    /// The database file.
    public nonisolated let path: String
    let configuration: Configuration
    let clock: @Sendable () -> Date
    private var database: SQLiteDatabase?

    /// A log in `cacheDirectory` (the file is `reading.sqlite` there); nothing is opened yet.
    public init(cacheDirectory: URL, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        path = cacheDirectory.appendingPathComponent("reading.sqlite").path
        self.configuration = configuration
        self.clock = clock
    }

    /// The keys (`Item.readingKey`) of the feed's items that were seen.
    public func seenKeys(feed: String) throws(Failure) -> Set<String> {
        let rows = try run { db throws(SQLiteError) in
            try db.execute("SELECT key FROM items WHERE feed = ? AND seen IS NOT NULL", [.text(feed)])
        }
        return Set(rows.compactMap { $0[0].text })
    }

    /// Files `items` under `feed` with their text for search: new ones as listed now, known ones
    /// updated when their text changed. With `seen`, also marks them seen (keeping the first time) or
    /// unseen.
    public func record(_ items: [Item], feed: FeedRef, seen: Bool? = nil) throws(Failure) {
        guard !items.isEmpty else { return }
        let now = clock().timeIntervalSince1970
        let entries = items.map { Entry($0, textLimit: configuration.textLimit) }
        try run { db throws(SQLiteError) in
            try db.writing { () throws(SQLiteError) in
                for entry in entries {
                    try db.execute("""
                        INSERT INTO items (feed, key, feed_name, title, author, body, link, item_id, created, listed)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (feed, key) DO UPDATE SET feed_name = excluded.feed_name, title = excluded.title,
                            author = excluded.author, body = excluded.body, link = excluded.link, item_id = excluded.item_id,
                            created = excluded.created
                        WHERE feed_name IS NOT excluded.feed_name OR title IS NOT excluded.title OR author IS NOT excluded.author
                            OR body IS NOT excluded.body OR link IS NOT excluded.link OR created IS NOT excluded.created
                        """, [.text(feed.id), .text(entry.key), .text(feed.title), .text(entry.title), .text(entry.author),
                              .text(entry.text), entry.link.map(SQLiteValue.text) ?? .null, entry.id.map(SQLiteValue.text) ?? .null,
                              entry.created.map(SQLiteValue.real) ?? .null, .real(now)])
                    switch seen {
                    case true?:
                        try db.execute("UPDATE items SET seen = COALESCE(seen, ?) WHERE feed = ? AND key = ?",
                                       [.real(now), .text(feed.id), .text(entry.key)])
                    case false?:
                        try db.execute("UPDATE items SET seen = NULL WHERE feed = ? AND key = ?", [.text(feed.id), .text(entry.key)])
                    case nil:
                        break
                    }
                }
            }
        }
    }

    /// Runs `body` on the database, opening it first if needed. A damaged file found in use is
    /// replaced, and the call fails; other failures just fail.
    @discardableResult
    func run<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(Failure) -> T {
        let db = try opened()
        do {
            return try body(db)
        } catch {
            if error.corrupt {
                database = nil
                replaceDamaged(error)
            }
            throw Failure(description: "reading log \(path): \(error)")
        }
    }

    private func opened() throws(Failure) -> SQLiteDatabase {
        if let database { return database }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try CacheFolder.makeFolder(URL(fileURLWithPath: folder, isDirectory: true))
        } catch {
            throw Failure(description: "reading log \(path): \(error)")
        }
        do {
            database = try openChecked()
        } catch where error.corrupt {
            replaceDamaged(error)
            do { database = try openChecked() } catch { throw Failure(description: "reading log \(path): \(error)") }
        } catch {
            throw Failure(description: "reading log \(path): \(error)")
        }
        prune()
        return database!
    }

    private func replaceDamaged(_ error: SQLiteError) {
        configuration.log("reading log \(path) is damaged (\(error)); starting a new one")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func openChecked() throws(SQLiteError) -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: path, access: .readWrite)
        let check = try db.execute("PRAGMA quick_check").first?.first?.text ?? "ok"
        guard check == "ok" else { throw SQLiteError.corruption(check) }
        chmod(path, 0o600)
        try db.writing { () throws(SQLiteError) in
            for statement in Self.schema + Self.savedSchema { try db.execute(statement) }
        }
        return db
    }

    /// Past `maxItems`, the items listed longest ago go (done once, when the file is opened).
    private func prune() {
        guard let db = database else { return }
        _ = try? db.execute("""
            DELETE FROM items WHERE id IN (SELECT id FROM items ORDER BY listed ASC, id ASC
                LIMIT MAX(0, (SELECT COUNT(*) FROM items) - ?))
            """, [.int(Int64(configuration.maxItems))])
    }

    /// The tables: items (their seen state and text), their full-text index (kept by triggers, so
    /// the seen column changes without touching it), and the feeds opened.
    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS items (
            id INTEGER PRIMARY KEY,
            feed TEXT NOT NULL,          -- Feed.id
            key TEXT NOT NULL,           -- Item.readingKey
            feed_name TEXT NOT NULL,     -- Feed.name, for search
            title TEXT NOT NULL,
            author TEXT NOT NULL DEFAULT '',
            body TEXT NOT NULL DEFAULT '',
            link TEXT,
            item_id TEXT,
            created REAL,                -- the item's own time (Unix seconds)
            listed REAL NOT NULL,        -- when Riffle first listed it
            seen REAL,                   -- when it was first seen; NULL while unseen
            UNIQUE (feed, key)
        )
        """,
        """
        CREATE VIRTUAL TABLE IF NOT EXISTS items_search USING fts5(
            title, author, body, feed_name, content='items', content_rowid='id', tokenize='unicode61 remove_diacritics 2')
        """,
        """
        CREATE TRIGGER IF NOT EXISTS items_added AFTER INSERT ON items BEGIN
            INSERT INTO items_search (rowid, title, author, body, feed_name) VALUES (new.id, new.title, new.author, new.body, new.feed_name);
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS items_removed AFTER DELETE ON items BEGIN
            INSERT INTO items_search (items_search, rowid, title, author, body, feed_name)
            VALUES ('delete', old.id, old.title, old.author, old.body, old.feed_name);
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS items_changed AFTER UPDATE OF title, author, body, feed_name ON items BEGIN
            INSERT INTO items_search (items_search, rowid, title, author, body, feed_name)
            VALUES ('delete', old.id, old.title, old.author, old.body, old.feed_name);
            INSERT INTO items_search (rowid, title, author, body, feed_name) VALUES (new.id, new.title, new.author, new.body, new.feed_name);
        END
        """,
        """
        CREATE TABLE IF NOT EXISTS feeds (
            id TEXT PRIMARY KEY,         -- Feed.id
            name TEXT NOT NULL,          -- how it is opened: a name or a URL template
            title TEXT NOT NULL,
            opened REAL NOT NULL
        )
        """,
    ]
}

extension SQLiteDatabase {
    /// A write transaction with the reading log's typed errors, waiting up to a second for another
    /// riffle's write to end (two browsers may share the cache folder).
    fileprivate func writing(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        do {
            try transaction(wait: 1_000) { () throws in try body() }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw .other("\(error)")
        }
    }
}
