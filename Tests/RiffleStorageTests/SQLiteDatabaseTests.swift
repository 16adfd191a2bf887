import Foundation
import Testing
@testable import RiffleStorage

@Suite("SQLiteDatabase: a read-write connection keeps a small page cache")
struct SQLiteDatabaseTests {
    @Test func aReadWriteConnectionCachesAtMostCacheKilobytes() throws {
        // Given a database opened for writing
        let folder = try SQLiteFileTests.Folder()
        let db = try SQLiteDatabase(path: folder.url.appendingPathComponent("data.sqlite").path, access: .readWrite)
        // Then its page cache is limited to cacheKilobytes (a negative cache_size counts KiB)
        #expect(try db.execute("PRAGMA cache_size").first?[0].int == -SQLiteDatabase.cacheKilobytes)
        #expect(SQLiteDatabase.cacheKilobytes == 256)
    }

    @Test func aReadOnlyConnectionKeepsSQLitesDefault() throws {
        // Given a database written once, then opened read-only
        let folder = try SQLiteFileTests.Folder()
        let path = folder.url.appendingPathComponent("data.sqlite").path
        try SQLiteFileTests.makeTable(SQLiteDatabase(path: path, access: .readWrite))
        let reader = try SQLiteDatabase(path: path, access: .readOnly)
        // Then it keeps SQLite's own limit (2,000 KiB): reads fill it only as far as they go
        #expect(try reader.execute("PRAGMA cache_size").first?[0].int == -2000)
    }
}
