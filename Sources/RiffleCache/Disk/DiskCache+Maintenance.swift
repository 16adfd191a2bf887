import Foundation
import RiffleHTTP
import RiffleStorage
#if canImport(Glibc)
import Glibc
#endif

extension DiskCache {
    static let indexName = "index.sqlite"

    /// The `responses` folder under the cache root: the index and the bodies of other requests.
    static func folder(_ root: URL) -> URL { root.appendingPathComponent("responses", isDirectory: true) }

    /// The index database's path in the `responses` folder.
    static func indexPath(_ folder: URL) -> String { folder.appendingPathComponent(indexName).path }
    /// `PRAGMA user_version` of the current layout: rows hold their file's inode, a version and the
    /// owner's note (which version 1 kept in a `<stem>.meta.json` file beside a named body).
    static let schemaVersion = 2

    static let schema = [
        """
        CREATE TABLE IF NOT EXISTS entries (
            key TEXT PRIMARY KEY,          -- SHA-256 of method, canonical URL, body, credential digests
            feed TEXT,                     -- the owner tag of a named body, else NULL (version 1's name)
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
            vary TEXT NOT NULL DEFAULT '', -- digest of the request's Vary header values
            file_id INTEGER,               -- the body file's inode when written: another file at path is not this body
            version INTEGER NOT NULL DEFAULT 0, -- random per store: a 304 renews only what it revalidated
            note TEXT                      -- what the owner keeps beside the body
        )
        """,
        "CREATE INDEX IF NOT EXISTS entries_by_access ON entries (last_access)",
        "CREATE INDEX IF NOT EXISTS entries_by_feed ON entries (feed)",
        "CREATE UNIQUE INDEX IF NOT EXISTS entries_by_path ON entries (path)",
    ]

    /// Opens the index file in `responses`, read-write when possible, else for reading (a read-only
    /// cache still answers), else as an immutable file (no lock at all: a folder where even the
    /// `-shm` file cannot be made). Creates it (0600, before SQLite opens it) when `create`; tightens
    /// an older one's mode; with `check`, replaces a damaged one (`SQLiteFile`).
    static func connect(_ responses: CacheFolder.Folder, create: Bool, check: Bool,
                        log: @Sendable (String) -> Void) throws(RiffleError) -> (SQLiteDatabase, writable: Bool) {
        let file = SQLiteFile(indexName, in: responses)
        do {
            let database = try file.open(accesses: [.readWrite, .readOnly, .immutable], create: create, check: check, replaceDamaged: check,
                                         damaged: { log("cache index \(file.path) is damaged (\($0.message)); starting a new one") },
                                         setUp: { database throws(SQLiteError) in
                                             try upgrade(database, writable: !database.isReadOnly, responses: responses)
                                         })
            return (database, !database.isReadOnly)
        } catch {
            throw RiffleError(error)
        }
    }

    /// Brings the index to `schemaVersion`: creates it, or adds version 2's columns to a version 1
    /// index and moves each named body's `<stem>.meta.json` into its row's note. A read-only index of
    /// another version cannot be read.
    private static func upgrade(_ database: SQLiteDatabase, writable: Bool, responses: CacheFolder.Folder) throws(SQLiteError) {
        if try database.execute("PRAGMA user_version").first?[0].int == schemaVersion { return }
        guard writable else { throw SQLiteError.readOnly("an index of another Riffle version, read-only") }
        do {
            try database.transaction(wait: 2_000) { () throws in
                let version = try database.execute("PRAGMA user_version").first?[0].int ?? 0
                guard version != schemaVersion else { return }
                guard version < schemaVersion else { throw SQLiteError.readOnly("an index of a newer Riffle") }
                let exists = try database.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'entries'").first?[0].int == 1
                if exists {
                    for column in ["file_id INTEGER", "version INTEGER NOT NULL DEFAULT 0", "note TEXT"] {
                        try database.execute("ALTER TABLE entries ADD COLUMN " + column)
                    }
                    try database.execute("""
                        DELETE FROM entries WHERE path IS NOT NULL AND rowid NOT IN
                        (SELECT MAX(rowid) FROM entries WHERE path IS NOT NULL GROUP BY path)
                        """)
                    try adoptSidecarNotes(database, root: URL(fileURLWithPath: responses.path).deletingLastPathComponent())
                }
                for statement in schema { try database.execute(statement) }
                try database.execute("PRAGMA user_version = \(schemaVersion)")
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError.other("\(error)")
        }
    }

    /// Version 1 kept a named body's note in `<stem>.meta.json` beside it (`feed_3.json`,
    /// `feed_3.meta.json`): that text becomes the row's note, and the file goes.
    private static func adoptSidecarNotes(_ database: SQLiteDatabase, root: URL) throws(SQLiteError) {
        let folder = CacheFolder(root: root)
        for row in try database.execute("SELECT key, path FROM entries WHERE path IS NOT NULL AND path NOT LIKE 'responses/%'") {
            guard let key = row[0].text, let path = row[1].text.flatMap(CachePath.init),
                  let parent = try? folder.open(path.folders, create: false) else { continue }
            guard path.isNamed, let dot = path.name.lastIndex(of: ".") else { continue }
            let name = String(path.name[..<dot]) + ".meta.json"
            let fd = openat(parent.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            var info = stat()
            var text: String?
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 64 * 1024 {
                var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
                if Glibc.read(fd, &bytes, bytes.count) == bytes.count { text = String(decoding: bytes, as: UTF8.self) }
            }
            close(fd)
            if let text { try database.execute("UPDATE entries SET note = ? WHERE key = ?", [.text(text), .text(key)]) }
            CacheFolder.unlinkRegularFile(name, in: parent)
        }
    }

    /// Removes temporary files that a killed or crashed Riffle left behind (its process is gone, or
    /// the file is older than ten minutes: no write takes that long), in `responses/` and in every
    /// folder of named bodies the index knows, looking at no more than `limit` names. Run once a
    /// run, when the cache first uses its index (a read or a store). Only the list of folders needs
    /// the connection: the files are looked at without holding it.
    func sweepTemporaryFiles(now: Date = Date(), limit: Int = 20_000) {
        var removed = 0
        var bytes = 0
        var budget = limit
        for folder in ownedFolders() where budget > 0 {
            let entries = CacheFolder.entries(of: folder, limit: budget)
            budget -= entries.count
            for entry in entries where entry.isFile {
                guard let writer = CachePath.temporaryWriter(entry.name) else { continue }
                let age = now.timeIntervalSince(entry.modified)
                let writerGone = writer != getpid() && kill(writer, 0) != 0 && errno == ESRCH
                guard age > 600 || (writerGone && age > 2) else { continue }
                if CacheFolder.unlinkRegularFile(entry.name, in: folder) {
                    removed += 1
                    bytes += entry.size
                }
            }
        }
        if removed > 0 {
            log("removed \(removed) temporary file\(removed == 1 ? "" : "s") (\(RiffleError.size(bytes))) left by an interrupted Riffle")
        }
    }

    /// `responses/` and the folders holding named bodies the index knows (`owner`: only that
    /// owner's), opened without following links.
    func ownedFolders(owner: String? = nil) -> [CacheFolder.Folder] {
        var folders: [CacheFolder.Folder] = []
        if owner == nil, let responses = try? folder.open(["responses"], create: false) { folders.append(responses) }
        for named in namedFolders(owner: owner) {
            if let opened = try? folder.open(named, create: false) { folders.append(opened) }
        }
        return folders
    }

    /// The `[folder, owner]` folders of the named bodies in the index (`owner`: only that owner's).
    func namedFolders(owner: String? = nil) -> [[String]] {
        let condition = owner == nil ? "" : " AND feed = ?"
        let rows = guarded { () throws(SQLiteError) in
            try database.execute("SELECT DISTINCT path FROM entries WHERE path IS NOT NULL" + condition, owner.map { [.text($0)] } ?? [])
        } ?? []
        return Array(Set(rows.compactMap { $0[0].text.flatMap(CachePath.init) }.filter(\.isNamed).map(\.folders)))
            .sorted { $0.joined(separator: "/") < $1.joined(separator: "/") }
    }

    /// Runs an index read; corruption found mid-use replaces the index (a miss, never a crash), other
    /// failures are logged and read as "nothing".
    func guarded<T>(_ body: () throws(SQLiteError) -> T) -> T? {
        serial.lock()
        defer { serial.unlock() }
        do { return try body() } catch {
            log("cache index: \(error.plainReason)")
            if error.corrupt { replaceDamagedIndex(error) }
            return nil
        }
    }

    /// A damaged index is replaced by an empty one; the files it indexed are then nobody's and go.
    func replaceDamagedIndex(_ error: SQLiteError) {
        serial.lock()
        defer { serial.unlock() }
        guard writable, checks, let responses = try? folder.open(["responses"], create: false),
              let (fresh, _) = try? Self.connect(responses, create: true, check: true, log: log) else { return }
        database = fresh
        _ = try? locked(wait: 0) { () throws -> Void in removeUnindexedFiles() }
    }

    /// Deletes the files no row points to in `folders` (by default the ones the index knows): in
    /// `responses/`, files with the cache's body names (`<key>-<nonce>.body`); in an owner's folder,
    /// only names the owner claims (`claims`: a page file, not a user's `notes.txt`), none without it.
    /// Called holding the write lock, so no other process is between writing a file and its row.
    func removeUnindexedFiles(in folders: [CacheFolder.Folder]? = nil, claims: (@Sendable (String) -> Bool)? = nil) {
        let known = Set((guarded { () throws(SQLiteError) in
            try database.execute("SELECT path FROM entries WHERE path IS NOT NULL")
        } ?? []).compactMap { $0[0].text })
        for opened in folders ?? ownedFolders() {
            let prefix = opened.path.hasSuffix("/responses") ? "responses/"
                : (opened.path as NSString).deletingLastPathComponent.split(separator: "/").suffix(1).joined() + "/"
                    + (opened.path as NSString).lastPathComponent + "/"
            for entry in CacheFolder.entries(of: opened) where entry.isFile {
                guard let path = CachePath(prefix + entry.name), !known.contains(path.description),
                      !path.isNamed || claims?(path.name) == true else { continue }
                CacheFolder.unlinkRegularFile(entry.name, in: opened)
            }
        }
    }

    /// Evicts least recently used entries (never `keeping`) until the total is under the size limit.
    /// Called holding the write lock.
    func evictLocked(keeping: CacheKey) throws(SQLiteError) -> [CacheKey] {
        let total = try database.execute("SELECT COALESCE(SUM(size), 0) FROM entries").first?[0].int ?? 0
        guard total > sizeLimit else { return [] }
        var excess = total - sizeLimit
        var evicted: [CacheKey] = []
        let rows = try database.execute("SELECT key, path, size FROM entries WHERE key != ? ORDER BY last_access ASC, rowid ASC LIMIT 1000",
                                        [.text(keeping.id)])
        for row in rows where excess > 0 {
            guard let id = row[0].text else { continue }
            try database.execute("DELETE FROM entries WHERE key = ?", [.text(id)])
            if let path = row[1].text.flatMap(CachePath.init) { folder.remove(path) }
            evicted.append(CacheKey(id: id))
            excess -= row[2].int ?? 0
        }
        return evicted
    }

    /// Total bytes, entry count and per-owner figures.
    func statistics() -> CacheStatistics {
        let totals = guarded { () throws(SQLiteError) in
            try database.execute("SELECT COALESCE(SUM(size), 0), COUNT(*) FROM entries").first
        } ?? nil
        let owners = guarded { () throws(SQLiteError) in
            try database.execute("SELECT feed, SUM(size), COUNT(*) FROM entries WHERE feed IS NOT NULL GROUP BY feed ORDER BY feed")
        } ?? []
        return CacheStatistics(
            totalSize: totals?[0].int ?? 0, entryCount: totals?[1].int ?? 0, sizeLimit: sizeLimit,
            owners: owners.map { .init(owner: $0[0].text ?? "", size: $0[1].int ?? 0, count: $0[2].int ?? 0) })
    }

    /// The paths of the named bodies indexed for `owner`.
    func paths(owner: String) -> [CachePath] {
        (guarded { () throws(SQLiteError) in
            try database.execute("SELECT path FROM entries WHERE feed = ? AND path IS NOT NULL", [.text(owner)])
        } ?? []).compactMap { $0[0].text.flatMap(CachePath.init) }
    }

    /// Removes every entry (`owner`: that owner's), with the files no row knows in the folders they
    /// were in (see `removeUnindexedFiles`); an owner's folder, and then its parent, go when nothing
    /// else is left in them. False when another connection holds the write lock.
    func removeAll(owner: String? = nil, claims: (@Sendable (String) -> Bool)? = nil, wait: Int32 = 0) throws(RiffleError) -> Bool {
        try locked(wait: wait) { () throws -> Void in
            let named = namedFolders(owner: owner)
            let folders = (owner == nil ? [["responses"]] : []) + named
            let opened = folders.compactMap { try? folder.open($0, create: false) }
            let condition = owner == nil ? "" : " WHERE feed = ?"
            let bindings: [SQLiteValue] = owner.map { [.text($0)] } ?? []
            let rows = try database.execute("DELETE FROM entries" + condition + " RETURNING path", bindings)
            for path in rows.compactMap({ $0[0].text.flatMap(CachePath.init) }) { folder.remove(path) }
            removeUnindexedFiles(in: opened, claims: claims)
            // Folders go only when empty: whatever else someone put there stays.
            for path in named {
                if let parent = try? folder.open([path[0]], create: false) { unlinkat(parent.fd, path[1], AT_REMOVEDIR) }
            }
            if let root = try? folder.open([], create: false) {
                for top in Set(named.map { $0[0] }) { unlinkat(root.fd, top, AT_REMOVEDIR) }
            }
        } != nil
    }
}
