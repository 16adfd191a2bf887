import Foundation
import Testing
@testable import RiffleStorage

@Suite("SQLiteFile: created 0600 before opening, replaced only through files it names")
struct SQLiteFileTests {
    /// A fresh folder per test, mode 0755 as a user's own `--cache-dir` may be; removed after.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-storage-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func mode(_ name: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)[.posixPermissions] as? Int)
        }
    }

    static func makeTable(_ db: SQLiteDatabase) throws(SQLiteError) {
        try db.execute("CREATE TABLE IF NOT EXISTS t (x TEXT)")
    }

    @Test func theFileAndItsWALAndSHMArePrivateInAFolderOthersCanRead() throws {
        // Given a folder others may read
        let folder = try Folder()
        let opened = try CacheFolder(root: folder.url).open([], create: false)
        // When a new database is opened there and written (so SQLite makes its -wal and -shm)
        let db = try SQLiteFile("data.sqlite", in: opened).open(accesses: [.readWrite], create: true, check: true, replaceDamaged: true,
                                                                setUp: Self.makeTable)
        try db.execute("INSERT INTO t VALUES ('private')")
        // Then all three files are the owner's alone
        for name in ["data.sqlite", "data.sqlite-wal", "data.sqlite-shm"] {
            #expect(try folder.mode(name) == 0o600, "\(name)")
        }
    }

    @Test func anOlderFileReadableByOthersLosesThoseBits() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("data.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        let opened = try CacheFolder(root: folder.url).open([], create: false)
        _ = try SQLiteFile("data.sqlite", in: opened).open(accesses: [.readWrite], create: true, check: true, replaceDamaged: true,
                                                           setUp: Self.makeTable)
        #expect(try folder.mode("data.sqlite") == 0o600)
    }

    @Test func aDamagedFileIsReplacedAndOnlyItsOwnNamesGo() throws {
        // Given a file that is not a database, beside a file of the user's with a similar name
        let folder = try Folder()
        try Data(repeating: 0x41, count: 8192).write(to: folder.url.appendingPathComponent("data.sqlite"))
        try Data("mine".utf8).write(to: folder.url.appendingPathComponent("data.sqlite-notes"))
        let opened = try CacheFolder(root: folder.url).open([], create: false)
        var told: [String] = []
        // When it is opened
        let db = try SQLiteFile("data.sqlite", in: opened).open(accesses: [.readWrite], create: true, check: true, replaceDamaged: true,
                                                                damaged: { told.append($0.message) }, setUp: Self.makeTable)
        // Then it is a new, empty database, the damage was told, and the user's file is untouched
        #expect(try db.execute("SELECT COUNT(*) FROM t").first?[0].int == 0)
        #expect(told.count == 1)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("data.sqlite-notes"), encoding: .utf8) == "mine")
    }

    @Test(arguments: ["data.sqlite-shm", "data.sqlite-wal"])
    func aFolderPlantedAtADamagedFilesCompanionSurvivesWithWhatItHolds(_ planted: String) throws {
        // Given a damaged file and a folder (holding a file) where its -shm or -wal would be
        let folder = try Folder()
        let damaged = Data(repeating: 0x41, count: 8192)
        try damaged.write(to: folder.url.appendingPathComponent("data.sqlite"))
        let inside = folder.url.appendingPathComponent(planted).appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: inside.appendingPathComponent("notes.txt"))
        let opened = try CacheFolder(root: folder.url).open([], create: false)
        // When it is opened with replacement allowed
        #expect {
            _ = try SQLiteFile("data.sqlite", in: opened).open(accesses: [.readWrite], create: true, check: true, replaceDamaged: true,
                                                               setUp: Self.makeTable)
        } throws: { error in
            // Then it fails saying why
            "\(error)".contains(planted) && "\(error)".contains("left alone")
        }
        // And nothing was deleted: the folder, what it holds, and the damaged file itself
        #expect(try String(contentsOf: inside.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("data.sqlite")) == damaged)
    }
}
