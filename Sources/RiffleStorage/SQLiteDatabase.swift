import CSQLite3
import Foundation

/// One value in or out of SQLite.
package enum SQLiteValue: Equatable {
    case null
    case int(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    package var int: Int? { if case .int(let v) = self { Int(v) } else { nil } }
    package var double: Double? {
        switch self {
        case .real(let v): v
        case .int(let v): Double(v)
        default: nil
        }
    }
    package var text: String? { if case .text(let v) = self { v } else { nil } }
    package var blob: Data? { if case .blob(let v) = self { v } else { nil } }
}

/// Why a statement failed; `corrupt` means the file is not a usable database.
package struct SQLiteError: Error, CustomStringConvertible {
    package var code: Int32
    package var message: String
    package var corrupt: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
    /// Another connection holds a lock this statement needed.
    package var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
    /// The file cannot be written (or its `-wal`/`-shm` created) here.
    package var isReadOnly: Bool { [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH].contains(code & 0xff) }
    /// Out of space, or an I/O failure (what a full disk looks like to SQLite).
    package var isFull: Bool { code & 0xff == SQLITE_FULL || code & 0xff == SQLITE_IOERR }
    package var description: String { "SQLite \(code): \(message)" }

    /// The failure in words, for a message about the index.
    package var plainReason: String {
        switch code & 0xff {
        case SQLITE_FULL: "no space left on device"
        case SQLITE_READONLY: "read-only (\(message))"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "damaged (\(message))"
        case SQLITE_IOERR: "input/output error (\(message))"
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: "cannot be opened for writing (\(message))"
        case SQLITE_BUSY, SQLITE_LOCKED: "locked by another program"
        default: message
        }
    }

    package static func corruption(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_CORRUPT, message: message) }
    package static func readOnly(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_READONLY, message: message) }
    package static func other(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_ERROR, message: message) }
}

/// A connection to one SQLite file, with prepared statements kept for reuse.
///
/// Not Sendable: one owner uses it (the cache's disk tier behind its lock, the reading log's actor). Other
/// processes use their own connections and SQLite's file locks order the writers. No statement
/// waits long for a lock: reads wait at most `readTimeout` (in WAL mode only a recovery or a
/// checkpoint can hold a reader up), and `transaction` asks for the write lock without waiting
/// unless told to: the caller decides how long a write may wait, and where.
package final class SQLiteDatabase {
    /// How a file is opened.
    package enum Access {
        /// Read and write; created when missing. WAL mode, `synchronous=NORMAL`, a page cache of
        /// `cacheKilobytes`.
        case readWrite
        /// Read only, taking part in WAL locking (needs its `-shm` to exist or be creatable).
        case readOnly
        /// Read only, as a file nobody changes (`immutable=1`): no locks and no `-shm`, for a
        /// database in a folder that cannot be written. Recent WAL contents are not seen.
        case immutable
    }

    /// The longest a read waits for a lock.
    package static let readTimeout: Int32 = 100

    /// The most a read-write connection keeps of its file's pages in memory, in KiB (SQLite's
    /// default is 2,000). riffle's writes are appends and single rows (a page's items staged, a
    /// response's row), which need only the few pages they change; at the default, a cold 200-page
    /// dump held 1.7 MB more of the reading log's and the index's pages (DECISIONS.md, "SQLite's page
    /// cache is 256 KB").
    package static let cacheKilobytes = 256

    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    package let access: Access

    package init(path: String, access: Access) throws(SQLiteError) {
        self.access = access
        let noFollow: Int32 = 0x0100_0000  // SQLITE_OPEN_NOFOLLOW (3.31): the index is never a symbolic link
        var flags = SQLITE_OPEN_NOMUTEX | noFollow
        var name = path
        switch access {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let error = SQLiteError(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "open failed")
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.readTimeout)
        if access == .readWrite {
            // journal_mode needs the lock once, on a new file (another process may be creating it
            // too); a WAL database reports "wal" without one.
            sqlite3_busy_timeout(handle, 2_000)
            defer { sqlite3_busy_timeout(handle, Self.readTimeout) }
            try execute("PRAGMA journal_mode=WAL")
            try execute("PRAGMA synchronous=NORMAL")
            try execute("PRAGMA cache_size=-\(Self.cacheKilobytes)")
            // A checkpoint empties the -wal file, so an open finds nothing to recover.
            try execute("PRAGMA journal_size_limit=0")
            // The -wal and -shm files stay when the last connection closes (emptied by its
            // checkpoint), so the next process's open, which paints a first frame, does not make
            // them again (that was most of a cached first frame's time).
            var persist: Int32 = 1
            sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Leaves the write-ahead log as it is when the last connection closes, where SQLite would copy
    /// it into the database file and empty it (two disk syncs and the copy: 10 to 30 ms at the end of
    /// a dump). The next automatic checkpoint copies it, and the next process to open the file reads
    /// it back first (up to `wal_autocheckpoint` pages). Not for a file that may be opened
    /// `.immutable`, which reads the database file alone, nor one copied elsewhere without its `-wal`.
    package func leavesWriteAheadLogOnClose() {
        csqlite3_no_checkpoint_on_close(handle, 1)
    }

    /// Whether writes are refused (a read-only file, folder or file system, or opened for reading).
    package var isReadOnly: Bool { access != .readWrite || sqlite3_db_readonly(handle, "main") == 1 }

    /// Runs `sql` with `bindings` and returns its rows.
    @discardableResult
    package func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try run(sql, bindings)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, so a read-then-write is atomic across
    /// processes. Waits at most `wait` milliseconds for another connection's write lock, then throws
    /// `SQLiteError.isBusy`. `body` must not wait for anything itself.
    package func transaction<T>(wait: Int32 = 0, _ body: () throws -> T) throws -> T {
        sqlite3_busy_timeout(handle, wait)
        defer { sqlite3_busy_timeout(handle, Self.readTimeout) }
        _ = try run("BEGIN IMMEDIATE", [])
        sqlite3_busy_timeout(handle, Self.readTimeout)
        do {
            let value = try body()
            _ = try run("COMMIT", [])
            return value
        } catch {
            _ = try? run("ROLLBACK", [])
            throw error
        }
    }

    /// `transaction` for a body whose only failures are SQLite's, with typed errors.
    package func writing(wait: Int32, _ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        do {
            try transaction(wait: wait) { () throws in try body() }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw .other("\(error)")
        }
    }

    /// A path inside a `file:` URI: `%`, `?` and `#` escaped.
    package static func uriEscaped(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
    }

    private func run(_ sql: String, _ bindings: [SQLiteValue]) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .int(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = csqlite3_bind_text(statement, index, v, -1)
            case .blob(let v): rc = v.withUnsafeBytes { csqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) }
            }
            guard rc == SQLITE_OK else { throw failure(rc) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(rc) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        statements[sql] = statement
        return statement
    }

    private func failure(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "")
    }
}
