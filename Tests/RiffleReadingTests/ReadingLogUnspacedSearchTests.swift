import Foundation
import Testing
@testable import RiffleReading
import RiffleKit
import RiffleStorage

@Suite("ReadingLog: search in Chinese, Japanese and Korean, written without spaces")
struct ReadingLogUnspacedSearchTests {
    typealias Folder = ReadingLogTests.Folder

    static func item(_ id: String, _ title: String, text: String = "") -> Item {
        ReadingLogTests.item(id, title, fields: ["text": .string(text)])
    }

    @Test func aWordIsFoundAnywhereInARunOfCharactersNotOnlyAtItsStart() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        // Given titles and texts whose words stand in runs with no space between them
        try await log.record([
            Self.item("1", "大阪と東京の天気"),
            Self.item("2", "Weekly notes", text: "新しいiPhone用ケースが届いた"),
            Self.item("3", "대한민국에서 만든 게임"),
            Self.item("4", "京都の紅葉"),
        ], feed: ReadingLogTests.hn)
        // Then a word is found in the middle or at the end of its run, one character or many
        #expect(try await log.search("東京").map(\.key) == ["id:1"])
        #expect(try await log.search("天気").map(\.key) == ["id:1"])
        #expect(try await log.search("東京の天気").map(\.key) == ["id:1"])
        #expect(try await log.search("京").map(\.key).sorted() == ["id:1", "id:4"])
        #expect(try await log.search("민국").map(\.key) == ["id:3"])
        #expect(try await log.search("ケース").map(\.key) == ["id:2"], "in the text")
        // And the Latin letters in such a run are a word of their own, found as a prefix, in any case
        #expect(try await log.search("iphone").map(\.key) == ["id:2"])
        #expect(try await log.search("IPHO").map(\.key) == ["id:2"])
        #expect(try await log.search("用ケース").map(\.key) == ["id:2"])
        // And the characters must stand together, in that order, as typed
        #expect(try await log.search("京東").isEmpty)
        #expect(try await log.search("大阪の天気").isEmpty)
        // And every word is still required, whatever its script
        #expect(try await log.search("大阪 天気").map(\.key) == ["id:1"])
        #expect(try await log.search("東京 notes").isEmpty)
        // And the best match first puts a title before a text
        try await log.record([Self.item("5", "Another week", text: "東京の天気")], feed: ReadingLogTests.lobsters)
        #expect(try await log.search("東京", order: .relevance).map(\.key) == ["id:1", "id:5"])
    }

    @Test func aChangedTitleIsFoundByItsNewCharactersOnly() async throws {
        let folder = Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        try await log.record([Self.item("1", "大阪と東京の天気")], feed: ReadingLogTests.hn)
        try await log.record([Self.item("1", "名古屋の天気")], feed: ReadingLogTests.hn)
        #expect(try await log.search("東京").isEmpty)
        #expect(try await log.search("古屋").map(\.key) == ["id:1"])
        try Self.expectIndexIntact(log)
    }

    /// The schema of logs made before 2026-12-04: one spelling of every word.
    static let oldSchema = [
        """
        CREATE TABLE items (id INTEGER PRIMARY KEY, feed TEXT NOT NULL, key TEXT NOT NULL, feed_name TEXT NOT NULL,
            title TEXT NOT NULL, author TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '', link TEXT, item_id TEXT,
            created REAL, listed REAL NOT NULL, seen REAL, UNIQUE (feed, key))
        """,
        """
        CREATE VIRTUAL TABLE items_search USING fts5(
            title, author, body, feed_name, content='items', content_rowid='id', tokenize='unicode61 remove_diacritics 2')
        """,
        """
        CREATE TRIGGER items_added AFTER INSERT ON items BEGIN
            INSERT INTO items_search (rowid, title, author, body, feed_name) VALUES (new.id, new.title, new.author, new.body, new.feed_name);
        END
        """,
        """
        CREATE TRIGGER items_removed AFTER DELETE ON items BEGIN
            INSERT INTO items_search (items_search, rowid, title, author, body, feed_name)
            VALUES ('delete', old.id, old.title, old.author, old.body, old.feed_name);
        END
        """,
        """
        CREATE TRIGGER items_changed AFTER UPDATE OF title, author, body, feed_name ON items BEGIN
            INSERT INTO items_search (items_search, rowid, title, author, body, feed_name)
            VALUES ('delete', old.id, old.title, old.author, old.body, old.feed_name);
            INSERT INTO items_search (rowid, title, author, body, feed_name) VALUES (new.id, new.title, new.author, new.body, new.feed_name);
        END
        """,
        """
        CREATE TABLE staged (id INTEGER PRIMARY KEY, feed TEXT NOT NULL, key TEXT NOT NULL, feed_name TEXT NOT NULL,
            title TEXT NOT NULL, author TEXT NOT NULL, body TEXT NOT NULL, link TEXT, item_id TEXT, created REAL, listed REAL NOT NULL)
        """,
    ]

    @Test func aLogMadeBeforeKeepsEveryItemAndSeenMarkAndFindsTheirWordsAnywhere() async throws {
        // Given a log written by an older riffle: two items filed (one seen), one a dump staged
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent(ReadingLog.fileName).path
        do {
            let old = try SQLiteDatabase(path: path, access: .readWrite)
            for statement in Self.oldSchema { try old.execute(statement) }
            try old.execute("""
                INSERT INTO items (feed, key, feed_name, title, body, listed, seen) VALUES
                    ('feed-hn', 'id:1', 'hn', '大阪と東京の天気', '', 1, 2), ('feed-hn', 'id:2', 'hn', 'Swift on Linux', 'Café notes', 1, NULL)
                """)
            try old.execute("""
                INSERT INTO staged (feed, key, feed_name, title, author, body, listed) VALUES
                    ('feed-hn', 'id:3', 'hn', 'Staged', '', '北海道で雪が降った', 3)
                """)
        }
        // When this riffle opens it
        let log = ReadingLog(cacheDirectory: folder.url)
        // Then nothing is lost: the seen mark, the items, the staged one
        #expect(try await log.seenKeys(feed: ReadingLogTests.hn.id) == ["id:1"])
        #expect(try await log.search("swif cafe").map(\.key) == ["id:2"], "Latin words as before: prefixes, any case or accent")
        // And words are found anywhere in a run, in what was filed and what was staged
        #expect(try await log.search("東京").map(\.key) == ["id:1"])
        #expect(try await log.search("雪").map(\.key) == ["id:3"])
        // And what is filed from now on is searched the same way
        try await log.record([Self.item("1", "名古屋の天気")], feed: ReadingLogTests.hn)
        #expect(try await log.search("東京").isEmpty)
        #expect(try await log.search("古屋").map(\.key) == ["id:1"])
        #expect(try await log.seenKeys(feed: ReadingLogTests.hn.id) == ["id:1"])
        try Self.expectIndexIntact(log)
        // And a second riffle opening it finds it up to date
        #expect(try await ReadingLog(cacheDirectory: folder.url).search("天気").map(\.key) == ["id:1"])
    }

    /// FTS5's own check that its index matches the items (a delete that named other text than was
    /// indexed leaves it malformed).
    static func expectIndexIntact(_ log: ReadingLog) throws {
        let db = try SQLiteDatabase(path: log.path, access: .readWrite)
        try db.execute("INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)")
    }

    /// The code-point shortcuts of `isWordScalar` agree with Unicode's properties for every assigned
    /// character, so a word splits the same wherever it is answered.
    @Test func theShortcutsAgreeWithUnicodesPropertiesForEveryCharacter() {
        var disagree: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
            if ReadingLog.isWordScalar(scalar) != ReadingLog.isWordScalarByProperties(scalar) {
                disagree.append(String(value, radix: 16))
            }
        }
        #expect(disagree.isEmpty, "\(disagree.prefix(20))")
    }

    /// Text without an unspaced character keeps none, whatever else it holds; with one, its words.
    @Test func onlyWordsHoldingUnspacedCharactersAreKeptInPieces() {
        #expect(ReadingLog.unspacedWords("Swift — 6.0 is out 🎉, café") == "")
        #expect(ReadingLog.unspacedWords("大阪と東京の天気 — news, 新しいiPhone用ケース!") == "大 阪 と 東 京 の 天 気 新 し い iPhone 用 ケ ー ス")
        #expect(ReadingLog.words(of: "a_b, c-d 東京") == ["a", "b", "c", "d", "東京"])
    }
}
