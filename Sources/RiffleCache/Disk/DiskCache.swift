import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleStorage
#if canImport(Glibc)
import Glibc
#endif

/// The disk tier: an SQLite index (`responses/index.sqlite`) with one row per entry, small bodies
/// inline in the row, larger ones in `responses/<key>-<nonce>.body`, named bodies where their owner put them.
///
/// A row and its file agree or the entry is a miss. A body file is written under a temporary name,
/// then, holding the index's write lock, the row is written and the file renamed into place before
/// the commit: two processes writing one body take turns, and the last commit wins whole. The row
/// records the file's size and inode; a file of another size or inode (another process's, half of a
/// crash, a tampered one) is not this entry's body. Files are deleted only while holding the lock,
/// so a delete never removes another process's newer file.
///
/// Reads never need the write lock: the last-access times they change are kept in memory and
/// written with the next store (or in a batch that does not wait).
///
/// One per `ResponseCache`, shared by its actor and its nonisolated `reader` (the first frame), so a
/// process holds one connection to the index. `@unchecked Sendable`: every method that touches the
/// connection, the pending times or the folder holds `serial`, a recursive lock (they call each other).
final class DiskCache: @unchecked Sendable {
    /// Held by every method that uses `database` or `touches`.
    let serial = NSRecursiveLock()
    let folder: CacheFolder
    let sizeLimit: Int
    let inlineLimit: Int
    let log: @Sendable (String) -> Void
    var database: SQLiteDatabase
    /// False when the index could only be opened for reading (a read-only file, folder or file
    /// system, an index of another version): reads work, stores are refused.
    private(set) var writable: Bool
    /// Last-access times not written yet, by key id.
    private var touches: [String: Double] = [:]
    /// The index's path, for messages.
    let indexPath: String
    /// Whether this connection checks the index and replaces a damaged one: set once the actor has
    /// checked it (`check()`); a connection the first frame opened does neither until then.
    var checks: Bool

    var root: URL { folder.root }

    static let columns = "key, feed, path, body, size, fetched_at, etag, last_modified, max_age, status, headers, vary, file_id, version, note"

    /// Opens the index of the cache at `root`.
    /// - Parameters:
    ///   - create: make the folders and an empty index when missing (for a store). Without it a
    ///     missing index throws: a lookup creates nothing.
    ///   - check: run `quick_check` and replace a damaged index (the cache's own connection does;
    ///     a reader's does not).
    init(root: URL, sizeLimit: Int, inlineLimit: Int, create: Bool, check: Bool = true,
         log: @escaping @Sendable (String) -> Void) throws(RiffleError) {
        folder = CacheFolder(root: root)
        self.sizeLimit = sizeLimit
        self.inlineLimit = inlineLimit
        self.log = log
        checks = check
        let responses = try folder.opened(["responses"], create: create)
        indexPath = responses.path + "/" + Self.indexName
        (database, writable) = try Self.connect(responses, create: create, check: check, log: log)
    }

    /// Runs `quick_check` once on a connection opened without it (by the first frame), replacing a
    /// damaged index, and from then on replaces one found damaged in use.
    func check() {
        serial.lock()
        defer { serial.unlock() }
        guard !checks else { return }
        checks = true
        let result = guarded { () throws(SQLiteError) in try database.execute("PRAGMA quick_check").first?.first?.text } ?? nil
        if let result, result != "ok" {
            log("cache index \(indexPath) is damaged (\(result)); starting a new one")
            replaceDamagedIndex(.corruption(result))
        }
    }

    deinit { flushTouches() }

    /// A row of the index.
    struct Row {
        var key: String
        /// The `feed` column: the owner tag (the name of version 1, when the owners were feeds).
        var owner: String?
        var path: String?
        var inline: Data?
        var size: Int
        var fetchedAt: Double
        var etag: String?
        var lastModified: String?
        var maxAge: Double?
        var status: Int
        var headers: String
        var vary: String
        var fileID: UInt64?
        var version: Int64
        var note: String?

        init(_ values: [SQLiteValue]) {
            key = values[0].text ?? ""
            owner = values[1].text
            path = values[2].text
            inline = values[3].blob
            size = values[4].int ?? -1
            fetchedAt = values[5].double ?? 0
            etag = values[6].text
            lastModified = values[7].text
            maxAge = values[8].double
            status = values[9].int ?? 200
            headers = values[10].text ?? ""
            vary = values[11].text ?? ""
            fileID = values[12].int.map { UInt64(bitPattern: Int64($0)) }
            version = Int64(values[13].int ?? 0)
            note = values[14].text
        }
    }

    /// The entry for `key`; nil on a miss or a damaged entry (removed and logged).
    func read(_ key: CacheKey, now: Date) -> CacheEntry? {
        serial.lock()
        defer { serial.unlock() }
        guard let entry = entry(where: "key = ?", .text(key.id)) else { return nil }
        if writable {
            touches[key.id] = now.timeIntervalSince1970
            if touches.count >= 64 { flushTouches() }
        }
        return entry
    }

    /// The entry whose body is the file at `path`, without touching it; nil on a miss or damage.
    func entry(at path: CachePath) -> CacheEntry? {
        entry(where: "path = ?", .text(path.description))
    }

    /// The row for the file at `path`, without reading the file.
    func row(at path: CachePath) -> Row? {
        guarded { () throws(SQLiteError) in
            try database.execute("SELECT \(Self.columns) FROM entries WHERE path = ?", [.text(path.description)]).first.map(Row.init)
        } ?? nil
    }

    private func entry(where condition: String, _ value: SQLiteValue) -> CacheEntry? {
        serial.lock()
        defer { serial.unlock() }
        let select = "SELECT \(Self.columns) FROM entries WHERE \(condition)"
        guard var row = guarded({ () throws(SQLiteError) in try database.execute(select, [value]).first.map(Row.init) }) ?? nil else {
            return nil
        }
        var body = self.body(of: row)
        if case .failure = body, row.path != nil,
           let again = guarded({ () throws(SQLiteError) in try database.execute(select, [value]).first.map(Row.init) }) ?? nil,
           again.version != row.version {
            // Another process replaced the entry between reading its row and its file.
            row = again
            body = self.body(of: row)
        }
        switch body {
        case .success(let data):
            guard let headers = Self.headers(fromText: row.headers) else {
                discard(row, because: "unreadable headers")
                return nil
            }
            return CacheEntry(key: CacheKey(id: row.key), status: row.status, headers: headers, body: data,
                              fetchedAt: Date(timeIntervalSince1970: row.fetchedAt), etag: row.etag, lastModified: row.lastModified,
                              serverMaxAge: row.maxAge, vary: row.vary, owner: row.owner, note: row.note, version: row.version)
        case .failure(let reason):
            discard(row, because: reason.text)
            return nil
        }
    }

    private struct Damage: Error { var text: String }

    /// A row's body: inline, or its file when that is the file the row describes.
    private func body(of row: Row) -> Result<Data, Damage> {
        guard let relative = row.path else {
            guard let inline = row.inline, inline.count == row.size else { return .failure(Damage(text: "inline body of the wrong size")) }
            return .success(inline)
        }
        guard let path = CachePath(relative) else { return .failure(Damage(text: "not a path the cache writes")) }
        switch folder.read(path, size: row.size, fileID: row.fileID) {
        case .data(let data, _): return .success(data)
        case .missing: return .failure(Damage(text: "file missing"))
        case .damaged(let reason): return .failure(Damage(text: reason))
        }
    }

    /// Removes and logs a row whose body is not what it describes, after looking again holding the
    /// write lock: then no other process is between renaming a new file into place and committing
    /// its row, so a mismatch is damage, not a write in progress. When the lock is busy, or the
    /// index read-only, the entry is only a miss this time. The file goes too when it is a regular
    /// file the cache names: nothing else is deleted, and nothing outside.
    private func discard(_ row: Row, because reason: String) {
        serial.lock()
        defer { serial.unlock() }
        guard writable else { return }
        let removed = try? database.transaction { () throws -> Bool in
            // Only the version that was read: another process may have replaced it since.
            guard let current = try database.execute("SELECT \(Self.columns) FROM entries WHERE key = ?", [.text(row.key)]).first.map(Row.init),
                  current.version == row.version else { return false }
            if case .success = body(of: current) { return false }
            try database.execute("DELETE FROM entries WHERE key = ? AND version = ?", [.text(row.key), .int(row.version)])
            if let path = row.path.flatMap(CachePath.init) { folder.remove(path) }
            return true
        }
        guard removed == true else { return }
        let shown = row.path.map { CachePath($0) == nil ? RiffleError.visible($0, limit: 80) : $0 } ?? "inline"
        log("removed damaged cache entry \(row.key.prefix(12)) (\(shown): \(reason))")
    }

    /// A new entry whose body file (if any) is written but not yet in place.
    struct Prepared {
        var entry: CacheEntry
        var path: CachePath?
        var file: PendingFile?
    }

    /// Writes the body of `entry` beside its place (a temporary file), before the lock is taken.
    func prepare(_ entry: CacheEntry, at location: BodyLocation, note: String?) throws(RiffleError) -> Prepared {
        guard writable else { throw .storage(path: indexPath, reason: "read-only") }
        var entry = entry
        entry.note = note
        entry.version = Int64.random(in: 1...Int64.max)
        let path: CachePath?
        switch location {
        case .named(let relative, _, _):
            guard let valid = CachePath(relative) else { throw .storage(path: relative, reason: "not a path the cache writes") }
            path = valid
        case .automatic where entry.size <= inlineLimit:
            path = nil
        case .automatic:
            path = CachePath.body(key: entry.key)
        }
        // A named body's file carries its row's record: the first frame trusts it without the index.
        let record = path.map(\.isNamed) == true ? EntryRecord(entry) : nil
        let file = try path.map { path throws(RiffleError) in try folder.prepare(entry.body, for: path, record: record) }
        return Prepared(entry: entry, path: path, file: file)
    }

    /// Headers as the index keeps them: one JSON object of strings, names sorted. Written and read
    /// with RiffleJSON: `JSONSerialization`'s sorted keys compare by locale, which loaded ICU's
    /// locale data (a megabyte resident) into every process that stored a page.
    static func headerText(_ headers: [String: String]) -> String {
        var text = ""
        JSONWriter.write(.object(JSONObject(headers.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) })),
                         into: &text)
        return text
    }

    /// `headerText` read back; nil when it is not an object of strings.
    static func headers(fromText text: String) -> [String: String]? {
        // Read from the tape: no `JSONValue` tree built and dropped on every hit. The same bytes are
        // accepted (`JSONDocument`'s full check is `JSONParser`'s), and of duplicated names the last wins.
        guard let document = try? JSONDocument(Data(text.utf8)) else { return nil }
        return document.withReader { (r: TapeReader) -> [String: String]? in
            guard r.kind(0) == .object else { return nil }
            var headers: [String: String] = [:]
            var strings = true
            r.forEachMember(of: 0) { k, v in
                guard strings else { return }
                if r.kind(v) == .string { headers[r.string(k)] = r.string(v) } else { strings = false }
            }
            return strings ? headers : nil
        }
    }

    /// Puts a prepared entry in place: row and file in one transaction. Returns the keys evicted to
    /// stay under the size limit, or nil when another connection holds the write lock (after
    /// waiting `wait` ms). The temporary file is removed on failure, and when `prepared` goes.
    func commit(_ prepared: Prepared, now: Date, wait: Int32 = 0) throws(RiffleError) -> [CacheKey]? {
        let entry = prepared.entry
        let safeHeaders = entry.headers.filter { !CacheEntry.privateHeaders.contains($0.key) }
        let headerText = Self.headerText(safeHeaders)
        let path = prepared.path?.description
        let row: [SQLiteValue] = [
            .text(entry.key.id), entry.owner.map(SQLiteValue.text) ?? .null, path.map(SQLiteValue.text) ?? .null,
            path == nil ? .blob(entry.body) : .null, .int(Int64(entry.size)), .real(entry.fetchedAt.timeIntervalSince1970),
            .real(now.timeIntervalSince1970), entry.etag.map(SQLiteValue.text) ?? .null, entry.lastModified.map(SQLiteValue.text) ?? .null,
            entry.serverMaxAge.map(SQLiteValue.real) ?? .null, .int(Int64(entry.status)), .text(headerText), .text(entry.vary),
            prepared.file.map { .int(Int64(bitPattern: $0.fileID)) } ?? .null, .int(entry.version), entry.note.map(SQLiteValue.text) ?? .null,
        ]
        do {
            let evicted = try locked(wait: wait) { () throws in
                let old = try database.execute("SELECT path FROM entries WHERE key = ?", [.text(entry.key.id)]).first?[0].text
                if let path {
                    // Another entry kept at this path (fetched from another URL before) gives way.
                    try database.execute("DELETE FROM entries WHERE path = ? AND key != ?", [.text(path), .text(entry.key.id)])
                }
                try database.execute("""
                    INSERT OR REPLACE INTO entries (key, feed, path, body, size, fetched_at, last_access, etag, last_modified,
                    max_age, status, headers, vary, file_id, version, note) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                    """, row)
                if let file = prepared.file {
                    try Self.checkPlace(file)
                    try file.commit()
                }
                if let old, old != path, let oldPath = CachePath(old) { folder.remove(oldPath) }
                return try evictLocked(keeping: entry.key)
            }
            return evicted  // nil: the caller may try again; the temporary file goes with `prepared`
        } catch {
            prepared.file?.discard()
            throw error
        }
    }

    /// What is at the file's place must be a regular file (or nothing): a folder or a link put there
    /// is not the cache's to replace.
    private static func checkPlace(_ file: PendingFile) throws(RiffleError) {
        var info = stat()
        guard fstatat(file.folder.fd, file.name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw .storage(path: file.folder.path + "/" + file.name, reason: kind == S_IFDIR ? "a folder is in the way" : "something that is not a file is in the way")
        }
    }

    /// Marks `key` as confirmed by the server (a 304): new fetch time and freshness, same body. Only
    /// when the row is still `version`. False when another connection holds the write lock.
    func renew(_ key: CacheKey, version: Int64, fetchedAt: Date, serverMaxAge: TimeInterval?, etag: String?,
               lastModified: String?, wait: Int32 = 0) throws(RiffleError) -> Bool {
        try locked(wait: wait) { () throws -> Void in
            let rows = try database.execute("""
                UPDATE entries SET fetched_at = ?, last_access = ?, max_age = ?, etag = COALESCE(?, etag),
                last_modified = COALESCE(?, last_modified) WHERE key = ? AND version = ? RETURNING \(Self.columns)
                """, [.real(fetchedAt.timeIntervalSince1970), .real(fetchedAt.timeIntervalSince1970),
                      serverMaxAge.map(SQLiteValue.real) ?? .null, etag.map(SQLiteValue.text) ?? .null,
                      lastModified.map(SQLiteValue.text) ?? .null, .text(key.id), .int(version)])
            // The file's record says what the row now says, so the next first frame shows it fresh.
            if let row = rows.first.map(Row.init), let path = row.path.flatMap(CachePath.init), path.isNamed, let fileID = row.fileID {
                folder.replaceRecord(EntryRecord(row).bytes, path.folders, path.name, fileID: fileID)
            }
        } != nil
    }

    /// Removes `key`'s row and body. False when another connection holds the write lock.
    func remove(_ key: CacheKey, wait: Int32 = 0) throws(RiffleError) -> Bool {
        try locked(wait: wait) { () throws -> Void in
            let rows = try database.execute("DELETE FROM entries WHERE key = ? RETURNING path", [.text(key.id)])
            for path in rows.compactMap({ $0[0].text.flatMap(CachePath.init) }) { folder.remove(path) }
        } != nil
    }

    /// Runs `body` holding the index's write lock, with the pending last-access times written first.
    /// nil when the lock is held elsewhere (after `wait` ms). SQLite failures become `storage`
    /// errors in plain words; a damaged index is replaced.
    func locked<T>(wait: Int32, _ body: () throws -> T) throws(RiffleError) -> T? {
        guard writable else { throw .storage(path: indexPath, reason: "read-only") }
        serial.lock()
        defer { serial.unlock() }
        do {
            return try database.transaction(wait: wait) { () throws in
                try writeTouches()
                return try body()
            }
        } catch let error as SQLiteError where error.isBusy {
            return nil
        } catch let error as SQLiteError {
            if error.corrupt { replaceDamagedIndex(error) }
            throw .storage(path: indexPath, reason: error.plainReason)
        } catch let error as RiffleError {
            throw error
        } catch let error as StorageError {
            throw RiffleError(error)
        } catch {
            throw .storage(path: indexPath, reason: "\(error)")
        }
    }

    /// Writes the pending last-access times, without waiting for the lock.
    func flushTouches() {
        serial.lock()
        defer { serial.unlock() }
        guard writable, !touches.isEmpty else { return }
        _ = try? locked(wait: 0) { () throws -> Void in }
        // Times that could not be written are worth little: a bounded number is kept for next time.
        if touches.count > 4_096 { touches.removeAll() }
    }

    private func writeTouches() throws(SQLiteError) {
        for (key, time) in touches {
            try database.execute("UPDATE entries SET last_access = MAX(last_access, ?) WHERE key = ?", [.real(time), .text(key)])
        }
        touches.removeAll()
    }
}
