import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleReading
import RiffleKit
import RiffleStorage

/// `ReadingLog.stage`, how `riffle dump` files: items kept without indexing them, filed in `items`
/// before anything reads or writes the log, and never piling up.
@Suite("ReadingLog: items a dump staged, filed before the log is read")
struct ReadingLogStagingTests {
    typealias Folder = ReadingLogTests.Folder
    static let hn = ReadingLogTests.hn

    static func item(_ id: String, _ title: String, text: String? = nil) -> Item {
        ReadingLogTests.item(id, title, fields: text.map { ["story_text": .string($0)] } ?? .object(JSONObject()))
    }

    /// The rows waiting in the staging table.
    static func staged(_ log: ReadingLog) async throws -> Int {
        try await log.run(filing: .none) { db throws(SQLiteError) in
            try db.execute("SELECT COUNT(*) FROM staged").first?[0].int ?? -1
        }
    }

    /// `riffle search` while another program holds the log's write lock (a second riffle filing a
    /// dump's items or trimming the log, a backup): what is filed answers at once; before, filing the
    /// staged items came first, waited for the lock and failed the search ("database is locked").
    @Test func aReadWhileAnotherProgramHoldsTheLockAnswersWithWhatIsFiled() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.record([Self.item("1", "zeppelin rising")], feed: Self.hn, seen: true)
        try await log.stage([Self.item("2", "zeppelin landing")], feed: Self.hn)
        // Given another connection, as another process has, holding the write lock
        let holder = try SQLiteDatabase(path: log.path, access: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        // When another log reads
        let reader = ReadingLog(cacheDirectory: folder.url)
        // Then it answers with what is filed; the staged item waits
        #expect(try await reader.search("zeppelin").map(\.key) == ["id:1"])
        #expect(try await reader.seenKeys(feed: Self.hn.id) == ["id:1"])
        #expect(try await reader.usage()?.items == 1)
        #expect(try await Self.staged(reader) == 1)
        // And once the lock is free, the next read files it
        try holder.execute("COMMIT")
        #expect(try await reader.search("zeppelin").map(\.key).sorted() == ["id:1", "id:2"])
        #expect(try await Self.staged(reader) == 0)
    }

    @Test func stagedItemsAreFoundByEveryReaderAsIfRecorded() async throws {
        // Given items staged by one log (a dump) and not yet filed
        let folder = Folder()
        let dump = ReadingLog(cacheDirectory: folder.url)
        try await dump.stage([Self.item("1", "zeppelin rising"), Self.item("2", "other news")], feed: Self.hn, opened: true)
        try await dump.stage([Self.item("3", "zeppelin landing")], feed: Self.hn)
        #expect(try await Self.staged(dump) == 3)
        // When another log (a later `riffle search`, the browser) reads the file
        let reader = ReadingLog(cacheDirectory: folder.url)
        // Then it finds them, lists them, counts them, and the feed is noted as opened
        #expect(try await reader.search("zeppelin").map(\.key).sorted() == ["id:1", "id:3"])
        #expect(try await reader.listedKeys(feed: Self.hn.id) == ["id:1", "id:2", "id:3"])
        #expect(try await reader.usage()?.items == 3)
        #expect(try await reader.openedFeeds().map(\.feed) == [Self.hn])
        #expect(try await Self.staged(reader) == 0)
    }

    /// A dump ends without copying the pages it staged last into the file (SQLite's checkpoint when
    /// the last connection closes: two disk syncs): they stay in the write-ahead log, where the next
    /// reader finds them.
    @Test func theLastItemsStagedStayInTheWriteAheadLogWhereTheNextReaderFindsThem() async throws {
        let folder = Folder()
        do {
            let dump = ReadingLog(cacheDirectory: folder.url)
            try await dump.stage([Self.item("1", "zeppelin rising")], feed: Self.hn, opened: true)
        }
        // The dump's log is closed (its only reference gone), its write-ahead log left as it was.
        let wal = folder.url.appending(path: "reading.sqlite-wal").path
        #expect((try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0) > 0)
        let reader = ReadingLog(cacheDirectory: folder.url)
        #expect(try await reader.search("zeppelin").map(\.key) == ["id:1"])
        #expect(try await reader.openedFeeds().map(\.feed) == [Self.hn])
    }

    /// A checkpoint syncs the disk twice. Every megabyte (SQLite's 256 pages, the file emptied each
    /// time) a cold dump of 200 pages synced 80 times; the log now holds a twelfth of its size limit.
    @Test func aDumpsItemsAreCopiedIntoTheFileEveryTwelfthOfTheSizeLimitNotEveryMegabyte() async throws {
        // Given a log with the default size limit (50 MB: a checkpoint every 4 MB)
        let folder = Folder()
        let dump = ReadingLog(cacheDirectory: folder.url)
        #expect(ReadingLog.checkpointPages(sizeLimit: ReadingLog.Configuration().sizeLimit) == 1_017)
        #expect(ReadingLog.checkpointPages(sizeLimit: 4 * 1024 * 1024) == 85, "a small limit, a small log")
        #expect(ReadingLog.checkpointPages(sizeLimit: 1_000_000_000) == 1_024 && ReadingLog.checkpointPages(sizeLimit: 0) == 64)
        // When a dump stages 30 pages of 50 items with 1.5 KB of text each (2.25 MB)
        let text = String(repeating: "paginated feeds on disk ", count: 64)
        for page in 1...30 {
            try await dump.stage((1...50).map { Self.item("\(page)-\($0)", "title \(page) \($0)", text: "\(page) \($0) " + text) },
                                 feed: Self.hn, opened: page == 1)
        }
        // Then its write-ahead log holds them all, past the old 1 MB mark and within the 4 MB one
        let wal = folder.url.appending(path: "reading.sqlite-wal").path
        let size = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
        #expect(size > 2_000_000 && size <= 1_017 * 4_096 + 4 * 1_024 * 1_024 / 10, "\(size) bytes")
        #expect(try await ReadingLog(cacheDirectory: folder.url).search("title 30 50").count == 1)
    }

    @Test func aStagedItemFiledBeforeKeepsWhenItWasListedAndSeenAndTakesItsNewText() async throws {
        // Given an item listed and seen at one time
        let folder = Folder()
        let clock = CacheTestClock()
        let log = ReadingLog(cacheDirectory: folder.url, clock: clock.closure)
        try await log.record([Self.item("1", "old headline")], feed: Self.hn, seen: true)
        let first = clock.date
        // When a dump later stages it with a new title, twice (the second staging is the newer)
        clock.advance(3_600)
        try await log.stage([Self.item("1", "interim headline"), Self.item("2", "new one")], feed: Self.hn)
        try await log.stage([Self.item("1", "fresh headline")], feed: Self.hn)
        // Then it is found by its newest title only, still listed and seen when it first was
        let found = try await log.search("headline")
        #expect(found.map(\.title) == ["fresh headline"])
        #expect(found.first?.listedAt == first && found.first?.seenAt == first)
        #expect(try await log.seenKeys(feed: Self.hn.id) == ["id:1"])
        // And the new item is listed when it was staged
        #expect(try await log.search("new").first?.listedAt == clock.date)
    }

    @Test func aRecordAfterAStagingIsNotUndoneByTheStagedCopy() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.stage([Self.item("1", "staged title")], feed: Self.hn)
        try await log.record([Self.item("1", "recorded title")], feed: Self.hn, seen: true)
        #expect(try await log.search("title").map(\.title) == ["recorded title"])
        #expect(try await log.seenKeys(feed: Self.hn.id) == ["id:1"])
    }

    @Test func stagingPastItsCountFilesItself() async throws {
        // Given a log that lets ten items wait
        let folder = Folder()
        var configuration = ReadingLog.Configuration()
        configuration.maxStaged = 10
        let log = ReadingLog(cacheDirectory: folder.url, configuration: configuration)
        // When eight are staged, they wait
        try await log.stage((1...8).map { Self.item("\($0)", "item \($0)") }, feed: Self.hn)
        #expect(try await Self.staged(log) == 8)
        // And when five more pass the ten, staging files all thirteen itself
        try await log.stage((9...13).map { Self.item("\($0)", "item \($0)") }, feed: Self.hn)
        #expect(try await Self.staged(log) == 0)
        let filed = try await log.run(filing: .none) { db throws(SQLiteError) in
            try db.execute("SELECT COUNT(*) FROM items").first?[0].int
        }
        #expect(filed == 13)
    }

    /// Nobody searches after many dumps: staged rows count against the size limit as filed ones do.
    @Test(.offThePool) func stagedItemsKeepTheLogUnderItsSizeLimit() async throws {
        let folder = Folder()
        let clock = CacheTestClock()
        var configuration = ReadingLog.Configuration()
        configuration.sizeLimit = 12 * 1024 * 1024
        let log = ReadingLog(cacheDirectory: folder.url, configuration: configuration, clock: clock.closure)
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 100)  // cut to the 2,000-character text limit
        var largest = 0
        // When 3,000 pages of four items arrive (24 MB of texts), none of them ever searched
        for page in 1...3_000 {
            let items = (1...4).map { Self.item("\(page)-\($0)", "item \(page) \($0)", text: "page\(page) " + text) }
            try await log.stage(items, feed: Self.hn)
            clock.advance(1)
            if page % 25 == 0 { largest = max(largest, ReadingLog.bytesOnDisk(log.path)) }
        }
        // Then the file never passed the limit, and the newest page is found
        #expect(largest <= configuration.sizeLimit, "\(largest) bytes")
        #expect(try await log.search("page3000").count == 4)
    }

    @Test func stagingNothingWithoutOpeningMakesNoFile() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.stage([], feed: Self.hn)
        #expect(!FileManager.default.fileExists(atPath: log.path))
    }
}
