import Foundation
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleReading
import RiffleKit
import RiffleStorage

@Suite("ReadingLog: seen state and search over everything listed")
struct ReadingLogTests {
    /// A fresh cache folder per test, removed after.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-reading-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let hn = ReadingLog.FeedRef(id: "feed-hn", name: "hn", title: "hn")
    static let lobsters = ReadingLog.FeedRef(id: "feed-lobsters", name: "lobsters", title: "lobsters")

    static func item(_ id: String?, _ title: String, url: String? = nil, author: String? = nil,
                     fields: JSONValue = .object(JSONObject())) -> Item {
        var item = Item(id: id, title: title, details: [], url: url, createdAt: nil, fields: fields)
        item.author = author
        return item
    }

    @Test func seenStateSurvivesANewLogOnTheSameFolderAndAClearedCache() async throws {
        let folder = Folder()
        // Given two items listed and one of them seen
        let log = ReadingLog(cacheDirectory: folder.url)
        let items = [Self.item("1", "first"), Self.item("2", "second")]
        try await log.record(items, feed: Self.hn)
        try await log.record([items[1]], feed: Self.hn, seen: true)
        // When the pages are cleared and Riffle starts again (a new log on the same folder)
        try await ResponseCache(directory: folder.url).removeAll()
        let again = ReadingLog(cacheDirectory: folder.url)
        // Then the seen item is still seen, in its own feed only
        #expect(try await again.seenKeys(feed: Self.hn.id) == ["id:2"])
        #expect(try await again.seenKeys(feed: Self.lobsters.id).isEmpty)
        // And marking it unseen undoes it
        try await again.record([items[1]], feed: Self.hn, seen: false)
        #expect(try await again.seenKeys(feed: Self.hn.id).isEmpty)
    }

    @Test func keysAreTheIdElseTheLinkElseAHashOfTheTitle() {
        #expect(Self.item("42", "t", url: "https://a.example/x").readingKey == "id:42")
        #expect(Self.item(nil, "t", url: "https://a.example/x").readingKey == "link:https://a.example/x")
        let byTitle = Self.item(nil, "a title").readingKey
        #expect(byTitle.hasPrefix("title:") && byTitle == Self.item(nil, "a title").readingKey && byTitle != Self.item(nil, "other").readingKey)
    }

    @Test func searchFindsWordsInTitleAuthorTextAndFeedNameAsPrefixesIgnoringCaseAndAccents() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        let story = Self.item("1", "Writing a terminal UI", author: "jvns",
                              fields: ["story_text": "<p>It uses <i>ncurses</i> &amp; Unicode, café style.</p>"])
        let other = Self.item("2", "Swift concurrency", author: "pat", fields: ["selftext": "Actors and tasks"])
        try await log.record([story], feed: Self.hn)
        try await log.record([other], feed: Self.lobsters)

        #expect(try await log.search("TERMINAL").map(\.title) == ["Writing a terminal UI"])
        #expect(try await log.search("jvns").map(\.key) == ["id:1"])
        #expect(try await log.search("ncurs").map(\.key) == ["id:1"], "a prefix, in the HTML text read as plain text")
        #expect(try await log.search("cafe").map(\.key) == ["id:1"], "accents ignored")
        #expect(try await log.search("amp").isEmpty, "entities are decoded, not indexed")
        #expect(try await log.search("actors lobsters").map(\.key) == ["id:2"], "every word, the feed's name too")
        #expect(try await log.search("actors terminal").isEmpty)
        #expect(try await log.search("unicode", feed: "lobsters").isEmpty)
        #expect(try await log.search("unicode", feed: "hn").first?.text == "It uses ncurses & Unicode, café style.")
    }

    @Test func queryPunctuationIsTextNeverSyntax() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.record([Self.item("1", "C++ AND Rust: NEAR \"quotes\"")], feed: Self.hn)
        for query in ["\"", "AND", "NEAR(", "rust:", "-c", "c++ *", "quotes\""] {
            _ = try await log.search(query)  // never an FTS5 syntax error
        }
        #expect(try await log.search("rust: AND").count == 1)
        #expect(try await log.search("   ").isEmpty)
    }

    @Test func resultsComeNewestFirstOrBestFirstWithHowToOpenTheirFeed() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        // Given an old item with the word in its title and a newer one with it in its text only
        var old = Self.item("1", "Swift on Linux")
        old.createdAt = Date(timeIntervalSince1970: 1_000)
        var new = Self.item("2", "A week of notes", fields: ["text": "some swift here"])
        new.createdAt = Date(timeIntervalSince1970: 2_000)
        try await log.noteOpened(Self.hn)
        try await log.record([old, new], feed: Self.hn)
        // And an item with no time of its own, listed now (its time is when it was listed)
        try await log.record([Self.item("3", "swift today, and other news of a long week")], feed: Self.lobsters)
        // Then newest first by default, best first when asked
        #expect(try await log.search("swift").map(\.key) == ["id:3", "id:2", "id:1"])
        #expect(try await log.search("swift", order: .relevance).map(\.key).first == "id:1")
        #expect(try await log.search("swift", order: .relevance).map(\.key).last == "id:2")
        // And the limit keeps the first in that order
        #expect(try await log.search("swift", limit: 1).map(\.key) == ["id:3"])
        // And a match says how its feed is opened again, when the feed was opened (noted) at all
        let matches = try await log.search("swift")
        #expect(matches.first { $0.key == "id:1" }?.feedName == "hn")
        #expect(matches.first { $0.key == "id:3" }?.feedName == nil)
    }

    @Test func aChangedTitleIsSearchedByItsNewWords() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.record([Self.item("1", "old wording")], feed: Self.hn, seen: true)
        try await log.record([Self.item("1", "new wording")], feed: Self.hn)
        #expect(try await log.search("old").isEmpty)
        let match = try #require(try await log.search("new").first)
        #expect(match.title == "new wording" && match.seenAt != nil, "the seen state stays with the item")
    }

    @Test func aSearchWithNothingFiledMakesNoFile() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        #expect(try await log.search("anything").isEmpty)
        #expect(try await log.openedFeeds().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: log.path))
    }

    @Test func aDamagedFileIsReplacedByAnEmptyLog() async throws {
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("reading.sqlite").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let lines = LockedLines()
        var configuration = ReadingLog.Configuration()
        configuration.log = { lines.append($0) }
        let log = ReadingLog(cacheDirectory: folder.url, configuration: configuration)
        try await log.record([Self.item("1", "after the damage")], feed: Self.hn, seen: true)
        #expect(try await log.seenKeys(feed: Self.hn.id) == ["id:1"])
        #expect(lines.all.contains { $0.contains("is damaged") }, "\(lines.all)")
    }

    @Test func pastTheLimitTheItemsListedLongestAgoGo() async throws {
        let folder = Folder()
        let clock = CacheTestClock()
        var configuration = ReadingLog.Configuration()
        configuration.maxItems = 3
        let log = ReadingLog(cacheDirectory: folder.url, configuration: configuration, clock: clock.closure)
        for n in 1...5 {
            try await log.record([Self.item("\(n)", "item \(n)")], feed: Self.hn, seen: true)
            clock.advance(1)
        }
        // The limit is applied when the file is opened: the next run keeps the newest three.
        let next = ReadingLog(cacheDirectory: folder.url, configuration: configuration)
        #expect(try await next.seenKeys(feed: Self.hn.id) == ["id:3", "id:4", "id:5"])
        #expect(try await next.search("item").count == 3)
    }

    /// Ten thousand pages keep a thread busy for a minute on a loaded machine: its own, not the pool's.
    @Test(.offThePool) func theLogStaysUnderItsSizeLimitWhileTenThousandPagesArrive() async throws {
        // Given a log limited to 4 MB
        let folder = Folder()
        let clock = CacheTestClock()
        var configuration = ReadingLog.Configuration()
        configuration.sizeLimit = 4 * 1024 * 1024
        let log = ReadingLog(cacheDirectory: folder.url, configuration: configuration, clock: clock.closure)
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 100)  // 2.7 KB, cut to the text limit
        var largest = 0
        // When 10,000 pages of two items arrive (over 50 MB of titles and texts sent), with an enormous title now and then
        for page in 1...10_000 {
            let items = (1...2).map { n in
                Self.item("\(page)-\(n)", page % 1_000 == 0 ? String(repeating: "t", count: 1_000_000) : "item \(page) \(n) headline",
                          fields: ["story_text": .string((page == 1 ? "oldest " : "page\(page) ") + text)])
            }
            try await log.record(items, feed: Self.hn)
            clock.advance(1)
            if page % 50 == 0 { largest = max(largest, ReadingLog.bytesOnDisk(log.path)) }
        }
        // Then the file (with its -wal) never passed the limit, the newest pages are searchable and the oldest went
        #expect(largest <= configuration.sizeLimit, "\(largest) bytes")
        #expect(try await log.search("page10000").count == 2)
        #expect(try await log.search("oldest").isEmpty)
        let usage = try #require(try await log.usage())
        #expect(usage.bytes <= configuration.sizeLimit && usage.items > 100 && usage.sizeLimit == configuration.sizeLimit)
        // And a text is kept as a bounded prefix
        #expect(try await log.search("page10000").first?.text.count == configuration.textLimit)
    }

    @Test func theLogAndItsWALAndSHMAreOwnerOnlyInACacheFolderOthersCanRead() async throws {
        // Given a --cache-dir the user made readable by others
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        // When items are filed (the log's -wal and -shm exist while it is open)
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.record([Self.item("1", "a private title")], feed: Self.hn, seen: true)
        // Then none of its files can be read by another user
        for suffix in ["", "-wal", "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: log.path + suffix)[.posixPermissions] as? Int
            #expect(mode == 0o600, "reading.sqlite\(suffix)")
        }
    }

    @Test func aFolderPlantedWhereTheDamagedLogsSHMWouldBeSurvives() async throws {
        // Given a damaged log and a folder of the user's named like its -shm, holding a folder and a file
        let folder = Folder()
        let inside = folder.url.appendingPathComponent("reading.sqlite-shm/kept")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: inside.appendingPathComponent("notes.txt"))
        try Data(repeating: 0x41, count: 8192).write(to: folder.url.appendingPathComponent("reading.sqlite"))
        let log = ReadingLog(cacheDirectory: folder.url)
        // When items are filed
        await #expect {
            try await log.record([Self.item("1", "title")], feed: Self.hn)
        } throws: { error in
            // Then the log is off, saying why
            "\(error)".contains("reading.sqlite-shm") && "\(error)".contains("left alone")
        }
        // And the folder and what it holds are still there
        #expect(try String(contentsOf: inside.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes")
    }

    @Test func anEnormousLinkOrIdKeepsASmallKey() {
        let long = "https://a.example/" + String(repeating: "x", count: 10_000)
        #expect(Self.item(nil, "t", url: long).readingKey.utf8.count < 64)
        #expect(Self.item(long, "t").readingKey.utf8.count < 64)
        #expect(Self.item(long, "t").readingKey != Self.item(long + "y", "t").readingKey)
    }

    @Test func feedsOpenedAreListedMostRecentFirst() async throws {
        let folder = Folder()
        let clock = CacheTestClock()
        let log = ReadingLog(cacheDirectory: folder.url, clock: clock.closure)
        try await log.noteOpened(Self.hn)
        clock.advance(10)
        try await log.noteOpened(Self.lobsters)
        clock.advance(10)
        try await log.noteOpened(Self.hn)
        #expect(try await log.openedFeeds().map(\.feed.name) == ["hn", "lobsters"])
    }
}

/// Lines a log closure collected, behind a lock.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("ReadingLog: items saved for later")
struct ReadingLogSavedTests {
    @Test func aSavedItemIsListedWholeFromANewLogAndUnsavingForgetsIt() async throws {
        let folder = ReadingLogTests.Folder()
        // Given an item with every part saved from hn, and another from lobsters later
        let clock = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
        let log = ReadingLog(cacheDirectory: folder.url, clock: { clock.withLock { $0 } })
        var story = Item(id: "42", title: "Show HN: Riffle", details: ["pg", "120 points"], url: "https://example.com/riffle",
                         createdAt: Date(timeIntervalSince1970: 1_699_990_000), fields: ["id": "42", "title": "Show HN: Riffle", "tags": ["a", "b"]])
        story.author = "pg"
        story.score = 120
        story.comments = 7
        try await log.save(story, feed: ReadingLogTests.hn)
        clock.withLock { $0 += 60 }
        try await log.save(ReadingLogTests.item("7", "second"), feed: ReadingLogTests.lobsters)
        // When another log reads the same folder (riffle started again)
        let again = ReadingLog(cacheDirectory: folder.url)
        let saved = try await again.savedItems()
        // Then both are listed, the last saved first, the item whole with its fields
        #expect(saved.map(\.item.title) == ["second", "Show HN: Riffle"])
        #expect(saved[1].item == story && saved[1].feedID == ReadingLogTests.hn.id && saved[1].feedTitle == "hn")
        #expect(saved[1].item.author == "pg" && saved[1].item.score == 120 && saved[1].item.comments == 7)
        #expect(saved[1].savedAt == Date(timeIntervalSince1970: 1_700_000_000) && saved[1].key == "id:42")
        #expect(try await again.savedKeys(feed: ReadingLogTests.hn.id) == ["id:42"])
        // And unsaving forgets it in its own feed only
        try await again.unsave(key: "id:42", feed: ReadingLogTests.lobsters.id)
        #expect(try await again.savedItems().count == 2)
        try await again.unsave(key: "id:42", feed: ReadingLogTests.hn.id)
        #expect(try await again.savedItems().map(\.item.title) == ["second"])
        #expect(try await again.savedKeys(feed: ReadingLogTests.hn.id).isEmpty)
    }

    @Test func aSavedItemNamesItsFeedAsItWasLastOpenedUntilForgotten() async throws {
        // `c` on a saved item opens its feed by that name
        let folder = ReadingLogTests.Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.noteOpened(ReadingLogTests.hn)
        try await log.save(ReadingLogTests.item("1", "one"), feed: ReadingLogTests.hn)
        try await log.save(ReadingLogTests.item("2", "two"), feed: ReadingLogTests.lobsters)
        #expect(try await log.savedItems().map(\.feedName) == [nil, "hn"])  // lobsters was never opened
        try await log.renameOpened("hn", to: "news")
        #expect(try await log.savedItems().last?.feedName == "news")
        try await log.forgetOpened(named: "news")
        #expect(try await log.savedItems().last?.feedName == nil)
    }

    @Test func withNothingSavedNothingIsListedAndNoFileIsMade() async throws {
        let folder = ReadingLogTests.Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        #expect(try await log.savedItems().isEmpty)
        #expect(try await log.savedKeys(feed: "x").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: log.path))
    }
}
