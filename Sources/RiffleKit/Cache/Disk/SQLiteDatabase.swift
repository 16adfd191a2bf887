import CSQLite3
import Foundation

/// One value in or out of SQLite.
enum SQLiteValue: Equatable {
    case null
    case int(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    var int: Int? { if case .int(let v) = self { Int(v) } else { nil } }
    var double: Double? {
        switch self {
        case .real(let v): v
        case .int(let v): Double(v)
        default: nil
        }
    }
    var text: String? { if case .text(let v) = self { v } else { nil } }
    var blob: Data? { if case .blob(let v) = self { v } else { nil } }
}

/// Why a statement failed; `corrupt` means the file is not a usable database.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var corrupt: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
    var description: String { "SQLite \(code): \(message)" }
}

/// A connection to one SQLite file in WAL mode, with prepared statements kept for reuse.
///
/// Not Sendable: one actor (`DiskCache`'s owner) uses it. Other processes use their own connections;
/// SQLite's file locks order the writers, and a busy or locked database is waited for and retried,
/// never treated as corruption.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// How many times a busy statement is retried after SQLite's own busy timeout ran out.
    private let busyRetries = 50

    init(path: String) throws(SQLiteError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let error = SQLiteError(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "open failed")
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_busy_timeout(handle, 5_000)
        // journal_mode needs a lock the first time; a WAL database reports "wal" without one.
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` with `bindings` and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        var attempt = 0
        while true {
            do {
                return try run(sql, bindings)
            } catch where error.code & 0xff == SQLITE_BUSY || error.code & 0xff == SQLITE_LOCKED {
                // Another process holds the lock past the busy timeout: wait and retry, never give up the cache.
                attempt += 1
                if attempt > busyRetries { throw error }
                usleep(UInt32(min(attempt, 20)) * 10_000)
            }
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, so a read-then-write is atomic across processes.
    func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? run("ROLLBACK", [])
            throw error
        }
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
