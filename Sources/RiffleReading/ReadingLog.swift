import Foundation
import RiffleKit
import RiffleStorage

/// What Riffle remembers of the items it has listed, feed by feed: whether each was seen, and its
/// text for search. One SQLite file in the cache folder (`reading.sqlite`, WAL), apart from the
/// pages, so it outlives their eviction and `riffle cache clear`.
///
/// The log has a size limit like the page cache's (`Configuration.sizeLimit`, 50 MB by default):
/// each item keeps a bounded prefix of its text, title, author and link, and past the limit the
/// items listed longest ago go first, with their seen state. The file is created 0600 before it is
/// opened, so its `-wal`/`-shm` are too (`SQLiteFile`).
///
/// `riffle dump` stages what it fetches (`stage`) rather than recording it: the items go to a plain
/// table, and the full-text index takes them when the log is next used, whatever for.
///
/// The database is opened on first use, not when the log is made: a browser makes its log before
/// the first frame and uses it after. Every failure leaves the log empty rather than stopping the
/// browser; a file that is not a database is logged and replaced by an empty one, as the cache's
/// index is, and only when its files are regular files (anything else there is left alone, and the
/// log says so and stays off).
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
package actor ReadingLog {
    /// How a log behaves.
    package struct Configuration: Sendable {
        /// Bytes the log's file may take on disk (with its `-wal`), 50 MB by default. Past three fifths
        /// of it in use, the items listed longest ago go until two fifths are.
        package var sizeLimit = 50_000_000
        /// Items kept; past this the ones listed longest ago go first (their seen state with them).
        package var maxItems = 100_000
        /// Items a dump may leave staged (`stage`) for the next reader to file; past this, staging
        /// files them itself.
        package var maxStaged = 20_000
        /// Characters of an item's text kept for search.
        package var textLimit = 2_000
        /// Told about events worth a log line (a damaged file replaced).
        package var log: @Sendable (String) -> Void = { _ in }

        /// The defaults: see each property.
        package init() {}
    }

    /// A feed as the log knows it.
    package struct FeedRef: Sendable, Hashable {
        /// `Feed.id`: where its items are filed.
        package var id: String
        /// How it is opened again: a preset or feeds-file name (`hn`, `github:apple/swift`) or a URL template.
        package var name: String
        /// What the browser calls it (`Feed.name`); search results and `--feed` use it too.
        package var title: String

        /// A feed with these parts.
        package init(id: String, name: String, title: String) {
            self.id = id
            self.name = name
            self.title = title
        }
    }

    /// Why the log could not answer; one line.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, in one line.
        package var description: String
        /// Another program (another riffle filing or trimming, a backup, a `sqlite3` shell) held the
        /// log's write lock longer than a write waits: nothing was written, and the same call made
        /// again later may succeed.
        package var isBusy = false
    }

    /// What the log holds, for `riffle cache info`.
    package struct Usage: Sendable, Equatable {
        /// Bytes of the file and its `-wal` on disk.
        package var bytes: Int
        /// Items filed.
        package var items: Int
        /// `Configuration.sizeLimit`.
        package var sizeLimit: Int
    }

    /// The file's name in the cache folder.
    package static let fileName = "reading.sqlite"

    /// The database file.
    package nonisolated let path: String
    let directory: URL
    let configuration: Configuration
    let clock: @Sendable () -> Date
    private var database: SQLiteDatabase?
    private var file: SQLiteFile?

    /// A log in `cacheDirectory` (the file is `reading.sqlite` there); nothing is opened yet.
    package init(cacheDirectory: URL, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        directory = cacheDirectory
        path = cacheDirectory.appendingPathComponent(Self.fileName).path
        self.configuration = configuration
        self.clock = clock
    }

    /// The keys (`Item.readingKey`) of the feed's items that were seen.
    package func seenKeys(feed: String) throws(Failure) -> Set<String> {
        let rows = try run(filing: .ifFree) { db throws(SQLiteError) in
            try db.execute("SELECT key FROM items WHERE feed = ? AND seen IS NOT NULL", [.text(feed)])
        }
        return Set(rows.compactMap { $0[0].text })
    }

    /// Files `items` under `feed` with their text for search: new ones as listed now, known ones
    /// updated when their text changed. With `seen`, also marks them seen (keeping the first time) or
    /// unseen. Past the size limit, the items listed longest ago go.
    package func record(_ items: [Item], feed: FeedRef, seen: Bool? = nil) throws(Failure) {
        guard !items.isEmpty else { return }
        let now = clock().timeIntervalSince1970
        let entries = items.map { Entry($0, textLimit: configuration.textLimit) }
        let feedTitle = Entry.cut(feed.title, to: Entry.nameLimit)
        try run { db throws(SQLiteError) in
            try db.writing(wait: 1_000) { () throws(SQLiteError) in
                for entry in entries {
                    try db.execute("INSERT INTO items (\(Self.itemColumns)) VALUES (\(Self.itemPlaceholders)) \(Self.upsert)",
                                   entry.values(feed: feed.id, feedTitle: feedTitle, listed: now))
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
            try trimToLimit(db)
        }
    }

    /// The log's size on disk and item count; nil when there is no log (no file is made).
    package func usage() throws(Failure) -> Usage? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let items = try run(filing: .ifFree) { db throws(SQLiteError) in try db.execute("SELECT COUNT(*) FROM items").first?[0].int ?? 0 }
        return Usage(bytes: Self.bytesOnDisk(path), items: items, sizeLimit: configuration.sizeLimit)
    }

    /// The file's and its `-wal`'s sizes.
    static func bytesOnDisk(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: name)[.size] as? Int) ?? 0)
        }
    }

    /// Whether `run` files the staged items before its body.
    enum Filing {
        /// Always, waiting for the lock as other writes do: for a body that writes.
        case required
        /// When the lock is free now: for a body that only reads.
        case ifFree
        /// Never (`stage` itself).
        case none
    }

    /// Runs `body` on the database, opening it first if needed, once the items a dump staged
    /// (`stage`) are filed in `items`: whatever `body` reads or writes, it sees them as if they had
    /// been recorded, and a later `record` is not undone by an older staged copy. Only `stage`
    /// itself passes `.none`; a read passes `.ifFree`, and then finds only what is filed while another
    /// program holds the lock. A damaged file found in use is replaced, and the call
    /// fails; other failures just fail.
    @discardableResult
    func run<T>(filing: Filing = .required, _ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(Failure) -> T {
        let db = try opened()
        do {
            // A read-only log is read as it is: its staged items cannot be filed.
            if !db.isReadOnly {
                switch filing {
                case .required:
                    try fileStaged(db)
                case .ifFree:
                    // Another program writing the log (a riffle filing or trimming it, a backup) does not
                    // hold up a read: what is filed answers, the staged items wait for the next writer.
                    do { try fileStaged(db, wait: 0) } catch where error.isBusy {}
                case .none:
                    break
                }
            }
            return try body(db)
        } catch {
            if db.isReadOnly, error.isReadOnly {
                throw Failure(description: "reading log is read-only: seen marks and saved items are not kept (\(path))")
            }
            if error.corrupt, let file {
                database = nil
                do throws(StorageError) {
                    database = try file.replace(error, damaged: replacing, setUp: setUp)
                } catch {
                    configuration.log("reading log \(error)")
                }
            }
            throw Failure(description: "reading log \(path): \(error)", isBusy: error.isBusy)
        }
    }

    private func opened() throws(Failure) -> SQLiteDatabase {
        if let database { return database }
        do throws(StorageError) {
            let folder = try CacheFolder(root: directory).open([], create: true)
            let file = SQLiteFile(Self.fileName, in: folder)
            self.file = file
            let db: SQLiteDatabase
            do {
                db = try file.open(accesses: [.readWrite], create: true, check: true, replaceDamaged: true, damaged: replacing, setUp: setUp)
            } catch where !error.isBusy {
                // A folder or file that cannot be written (a read-only file system, another user's
                // cache): read as it is, so search and seen marks still answer. Not when the lock was
                // busy: a read-write open tried again later will work.
                guard let readOnly = try? file.open(accesses: [.readOnly, .immutable], create: false, check: true, replaceDamaged: false,
                                                    setUp: setUp) else { throw error }
                db = readOnly
            }
            database = db
            if !db.isReadOnly { prune(db) }
            return db
        } catch {
            throw Failure(description: "reading log \(error)", isBusy: error.isBusy)
        }
    }

    private func replacing(_ error: SQLiteError) {
        configuration.log("reading log \(path) is damaged (\(error)); starting a new one")
    }

    /// The tables, made when missing. The write-ahead log is checkpointed when it holds a twelfth of
    /// the size limit (`checkpointPages`: 1,017 pages of 4 KB, 4 MB, for the default 50 MB), so it
    /// stays small beside the limit, and is kept at that size rather than emptied after each
    /// checkpoint; it is not checkpointed when the log is closed: a dump ends without copying the
    /// pages it staged last (the next writer does).
    ///
    /// A checkpoint costs two disk syncs: every 256 pages (1 MB) and emptied each time, a cold dump
    /// of 200 pages synced the disk 80 times and truncated the file 48 times while it staged 20 MB.
    private nonisolated func setUp(_ db: SQLiteDatabase) throws(SQLiteError) {
        let pages = Self.checkpointPages(sizeLimit: configuration.sizeLimit)
        try db.execute("PRAGMA wal_autocheckpoint=\(pages)")
        try db.execute("PRAGMA journal_size_limit=\(pages * 4_096)")
        db.leavesWriteAheadLogOnClose()
        if db.isReadOnly {
            // Nothing can be made here: a file without the tables is no log to read.
            guard try !db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'items'").isEmpty else {
                throw SQLiteError.readOnly("read-only, and no reading log yet")
            }
            return
        }
        // A log that has every table, index and trigger already takes no write lock to open: another
        // program holding it (a riffle trimming the log) does not keep this one from reading.
        let present = Set(try db.execute("SELECT name FROM sqlite_master").compactMap { $0[0].text })
        let outdated = try Self.lacksUnspacedColumns(db)
        guard !Self.schemaNames.isSubset(of: present) || outdated else { return }
        try db.writing(wait: 1_000) { () throws(SQLiteError) in
            // Asked again under the lock: another riffle may have brought the log up to date meanwhile.
            let outdated = try Self.lacksUnspacedColumns(db)
            if outdated { try Self.addUnspacedColumns(db) }
            for statement in Self.schema + Self.savedSchema + Self.stagedSchema { try db.execute(statement) }
            if outdated { try db.execute("INSERT INTO items_search (items_search) VALUES ('rebuild')") }
        }
    }

    /// The names the schema's statements create (`CREATE ... IF NOT EXISTS name`).
    static let schemaNames: Set<String> = Set((schema + savedSchema + stagedSchema).compactMap { statement in
        guard let range = statement.range(of: "IF NOT EXISTS ") else { return nil }
        let name = statement[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    })

    /// Pages of 4 KB the write-ahead log holds before a checkpoint: a twelfth of `sizeLimit`
    /// (trimming keeps the rest under three fifths of it), 64 at the least and 1,024 at the most.
    static func checkpointPages(sizeLimit: Int) -> Int {
        min(1_024, max(64, sizeLimit / 12 / 4_096))
    }

    /// Past `maxItems`, the items listed longest ago go (done once, when the file is opened).
    private func prune(_ db: SQLiteDatabase) {
        _ = try? db.execute("""
            DELETE FROM items WHERE id IN (SELECT id FROM items ORDER BY listed ASC, id ASC
                LIMIT MAX(0, (SELECT COUNT(*) FROM items) - ?))
            """, [.int(Int64(configuration.maxItems))])
        try? trimToLimit(db)
    }

    /// Bytes of the database's pages in use (its free pages are reused before the file grows).
    static func usedBytes(_ db: SQLiteDatabase) throws(SQLiteError) -> Int {
        let pages = try db.execute("PRAGMA page_count").first?[0].int ?? 0
        let free = try db.execute("PRAGMA freelist_count").first?[0].int ?? 0
        let size = try db.execute("PRAGMA page_size").first?[0].int ?? 4096
        return (pages - free) * size
    }

    /// When the pages in use pass three fifths of the size limit, the items listed longest ago go, a
    /// tenth of them at a time, until they are under two fifths; then the full-text index is built
    /// again from what is left (its deleted entries would otherwise hold their pages until merged)
    /// and the write-ahead log emptied. The room left is for that rebuild and the `-wal` between
    /// checkpoints, so the files on disk stay under the limit.
    func trimToLimit(_ db: SQLiteDatabase) throws(SQLiteError) {
        let limit = configuration.sizeLimit
        guard try Self.usedBytes(db) > limit / 5 * 3 else { return }
        var rounds = 0
        while try Self.usedBytes(db) > limit / 5 * 2, rounds < 40 {
            rounds += 1
            try db.writing(wait: 1_000) { () throws(SQLiteError) in
                try db.execute("""
                    DELETE FROM items WHERE id IN (SELECT id FROM items ORDER BY listed ASC, id ASC
                        LIMIT MAX(1, (SELECT COUNT(*) FROM items) / 10))
                    """)
            }
            if try db.execute("SELECT COUNT(*) FROM items").first?[0].int == 0 { break }
        }
        try db.writing(wait: 1_000) { () throws(SQLiteError) in try db.execute("INSERT INTO items_search (items_search) VALUES ('rebuild')") }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
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
            title_chars TEXT NOT NULL DEFAULT '',  -- the title's words in unspaced scripts, a character a word
            text_chars TEXT NOT NULL DEFAULT '',   -- the same of author, body and feed_name
            UNIQUE (feed, key)
        )
        """,
        """
        CREATE VIRTUAL TABLE IF NOT EXISTS items_search USING fts5(
            title, author, body, feed_name, title_chars, text_chars, content='items', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2')
        """,
        """
        CREATE TRIGGER IF NOT EXISTS items_added AFTER INSERT ON items BEGIN
            INSERT INTO items_search (rowid, title, author, body, feed_name, title_chars, text_chars)
            VALUES (new.id, new.title, new.author, new.body, new.feed_name, new.title_chars, new.text_chars);
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS items_removed AFTER DELETE ON items BEGIN
            INSERT INTO items_search (items_search, rowid, title, author, body, feed_name, title_chars, text_chars)
            VALUES ('delete', old.id, old.title, old.author, old.body, old.feed_name, old.title_chars, old.text_chars);
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS items_changed AFTER UPDATE OF title, author, body, feed_name, title_chars, text_chars ON items BEGIN
            INSERT INTO items_search (items_search, rowid, title, author, body, feed_name, title_chars, text_chars)
            VALUES ('delete', old.id, old.title, old.author, old.body, old.feed_name, old.title_chars, old.text_chars);
            INSERT INTO items_search (rowid, title, author, body, feed_name, title_chars, text_chars)
            VALUES (new.id, new.title, new.author, new.body, new.feed_name, new.title_chars, new.text_chars);
        END
        """,
        """
        CREATE TABLE IF NOT EXISTS discussions (
            feed TEXT NOT NULL,          -- Feed.id
            key TEXT NOT NULL,           -- Item.readingKey
            newest REAL,                 -- the newest comment's time at the last visit (the server's clock)
            visited REAL NOT NULL,       -- when
            PRIMARY KEY (feed, key)
        )
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
