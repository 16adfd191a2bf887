import Foundation
import Testing
@testable import RiffleKit

@Suite("Finding items and their parts")
struct ItemExtractorTests {
    func items(_ json: String, itemPath: JSONPath? = nil, fields: FieldMapping = FieldMapping()) throws(FeedError) -> [Item] {
        try ItemExtractor.items(in: Data(json.utf8), itemPath: itemPath, fields: fields)
    }

    func error(_ json: String, itemPath: JSONPath? = nil) -> FeedError? {
        do throws(FeedError) { _ = try items(json, itemPath: itemPath); return nil } catch { return error }
    }

    // MARK: Where the items are

    @Test func plainArrayUsesNameAsTitle() throws {
        let items = try ItemExtractor.items(in: Data(contentsOf: Fixture.url("bare-array.json")))
        #expect(items.map(\.title) == ["first", "second", "third"])
        #expect(items.map(\.id) == ["1", "2", "3"])
    }

    @Test func largestArrayOfObjectsWins() throws {
        #expect(try items(#"{"tags":[{"a":1}],"meta":{"results":[{"title":"x"},{"title":"y"}]}}"#).map(\.title) == ["x", "y"])
    }

    @Test func theListWithTitlesAndTimesWinsOverALargerOne() throws {
        let json = #"{"users":[{"id":1},{"id":2},{"id":3}],"list":{"posts":[{"title":"a","created_at":"2024-01-01"},{"title":"b"}]}}"#
        #expect(try items(json).map(\.title) == ["a", "b"])
    }

    @Test func theRootsDataArrayIsTheList() throws {
        let json = #"{"data":[{"type":"articles","id":"1","attributes":{"title":"T"}}],"included":[{"type":"people","id":"9"},{"type":"people","id":"8"}]}"#
        #expect(try items(json).map(\.title) == ["T"])
    }

    @Test(arguments: [
        #"[]"#, #"{"hits":[],"page":3,"nbPages":3}"#, #"{"data":[],"included":[{"id":1}]}"#,
        #"{"kind":"Listing","data":{"after":null,"children":[]}}"#, #"{"ids":[1,2],"hits":[]}"#,
    ])
    func anEmptyArrayIsAnEmptyPage(json: String) throws {
        #expect(try items(json).isEmpty)
    }

    @Test func anEmptyArrayAtTheConfiguredPathIsAnEmptyPage() throws {
        #expect(try items(#"{"data":{"children":[]}}"#, itemPath: "data.children").isEmpty)
    }

    @Test func noArrayNamesTheKeysItSaw() throws {
        #expect(error(#"{"status":"ok","count":3}"#) == .noItems(keys: ["status", "count"]))
        #expect(FeedError.noItems(keys: ["status", "count"]).description == "no list of items in the response (top-level keys: status, count)")
        #expect(error(#"{"a":1}"#, itemPath: "data") == .noItems(keys: ["a"]))
        #expect(error(#""just text""#) == .noItems(keys: []))
    }

    @Test func keysInTheMessageCannotReachATerminalRaw() {
        let message = FeedError.noItems(keys: ["\u{1B}c", "a\u{9B}b", "\u{202E}evil", String(repeating: "k", count: 60)]).description
        #expect(message == "no list of items in the response (top-level keys: ␛c, a\u{FFFD}b, \u{FFFD}evil, \(String(repeating: "k", count: 40))…)")
        #expect(!FeedError.scalarItems(count: 2, kind: "numbers", path: "a\u{7}b").description.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test(arguments: [
        (#"[1,2,3]"#, nil, FeedError.scalarItems(count: 3, kind: "numbers", path: ""), "an array of 3 numbers, no objects to list"),
        (#"{"ids":[7,8]}"#, nil, .scalarItems(count: 2, kind: "numbers", path: "ids"), "an array of 2 numbers at ids, no objects to list"),
        (#"{"a":{"b":["x"]}}"#, nil, .scalarItems(count: 1, kind: "string", path: "a.b"), "an array of 1 string at a.b, no objects to list"),
        (#"["a",1,null]"#, nil, .scalarItems(count: 3, kind: "values", path: ""), "an array of 3 values, no objects to list"),
        (#"[[1],[2]]"#, nil, .scalarItems(count: 2, kind: "arrays", path: ""), "an array of 2 arrays, no objects to list"),
        (#"{"r":{"ids":[true,false]}}"#, "r.ids", .scalarItems(count: 2, kind: "booleans", path: "r.ids"),
         "an array of 2 booleans at r.ids, no objects to list"),
    ] as [(String, String?, FeedError, String)])
    func anArrayOfScalarsSaysWhatItHolds(json: String, itemPath: String?, expected: FeedError, message: String) {
        #expect(error(json, itemPath: itemPath.map { JSONPath($0) }) == expected)
        #expect(expected.description == message)
    }

    @Test func aTopLevelArrayListsTheObjectsItHas() throws {
        #expect(try items(#"[1,{"title":"x"},"y"]"#).map(\.title) == ["x"])
    }

    // MARK: The parts of an item

    @Test func wrappersAreUnwrapped() throws {
        let json = #"{"edges":[{"cursor":"c1","node":{"title":"graph","url":"https://x.org/1","createdAt":"2024-05-01T00:00:00Z"}}]}"#
        let item = try #require(try items(json).first)
        #expect(item.title == "graph" && item.url == "https://x.org/1")
        #expect(item.fields["cursor"] == nil)
    }

    @Test(arguments: ["attributes", "snippet", "package", "record", "fields", "commit"])
    func partsAreFoundOneLevelIn(key: String) throws {
        let json = #"[{"id":"7","kind":"k","\#(key)":{"title":"inner","created_at":"2024-05-01T00:00:00Z"}}]"#
        let item = try #require(try items(json).first)
        #expect(item.title == "inner")
        #expect(item.id == "7")
        #expect(item.createdAt == Date(timeIntervalSince1970: 1_714_521_600))  // 2024-05-01T00:00:00Z
    }

    @Test func theItemsOwnFieldsComeBeforeTheOnesLookedInto() throws {
        let item = try #require(try items(#"[{"title":"outer","attributes":{"title":"inner"}}]"#).first)
        #expect(item.title == "outer")
    }

    @Test func titlesAreTextNotHTML() throws {
        let json = #"""
        [{"content":"<p>Hello &amp; <a href=\"https://x.org/a\">welcome</a></p><p>Bye<br>now</p>"},
         {"title":"Why Vec<T> &amp; Option<T> &#8212; explained &#x1F680;"},
         {"title":"line\none\ttab  and   spaces "},
         {"title":"esc \u001b[31m red \u009b"}]
        """#
        #expect(try items(json).map(\.title) == [
            "Hello & welcome (https://x.org/a) Bye now",
            "Why Vec<T> & Option<T> — explained 🚀",
            "line one tab and spaces",
            "esc ␛[31m red \u{FFFD}",
        ])
    }

    /// The fast check that lets most titles through untouched, eight bytes at a time: a byte that
    /// needs work is found at every offset, and CJK, emoji and dashes are not mistaken for one.
    @Test func theCleanTitleCheckMissesNothingAtAnyOffset() {
        func needsWork(_ text: String) -> Bool {
            var text = text
            return text.withUTF8(DisplayText.needsWork)
        }
        for offset in 0..<20 {
            for piece in ["\u{1B}", "\n", "<", "&", "\u{7F}", "\u{9B}", "\u{A0}", "\u{2028}", "\u{202E}", "\u{2067}"] {
                for tail in ["", "b", "bbbbbbbbb"] {
                    let text = String(repeating: "a", count: offset) + piece + tail
                    #expect(needsWork(text), "\(text.debugDescription)")
                    #expect(!DisplayText.line(text).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                }
            }
            let clean = String(repeating: "a", count: offset) + "東京 — 🚀🇯🇵 «é» ’x’ …"
            #expect(!needsWork(clean), "\(clean.debugDescription)")
            #expect(DisplayText.line(clean) == clean)
        }
    }

    @Test func theLinkIsAPageNotAnAPIEndpoint() throws {
        let json = #"[{"url":"https://api.github.com/repos/a/b/issues/1","html_url":"https://github.com/a/b/issues/1"},"#
            + #"{"href":"https://example.com/api/v1/items/2"},{"url":"ftp://x.org/3","link":"https://x.org/3"},{"url":"/relative"}]"#
        #expect(try items(json).map(\.url) == ["https://github.com/a/b/issues/1", nil, "https://x.org/3", nil])
    }

    @Test(arguments: [
        (#"[{"title":"a","points":1,"num_comments":1},{"title":"b","points":7,"num_comments":3}]"#, ["1 point", "1 comment"]),
        (#"[{"title":"a","score":1.0,"stargazers_count":12,"reply_count":2},{"title":"b","score":0.5,"stargazers_count":40,"reply_count":4}]"#,
         ["12 stars", "2 replies"]),
        (#"[{"title":"a","comments":0,"likeCount":3},{"title":"b","comments":0,"likeCount":5}]"#, ["3 likes"]),
        (#"[{"title":"a","score":-4,"answer_count":2},{"title":"b","score":6,"answer_count":1}]"#, ["-4 points", "2 answers"]),
    ])
    func countsAreWholeNumbersWithTheirUnit(json: String, first: [String]) throws {
        // A relevance of 1.0 is no count, and zero is left out.
        #expect(try items(json).first?.details == first)
    }

    @Test func twoFactsBesideATimeThreeWithout() throws {
        let json = #"[{"title":"a","by":"pg","points":5,"descendants":9},{"title":"b","by":"pg","points":5,"descendants":9,"time":1700000000}]"#
        #expect(try items(json).map(\.details) == [["pg", "5 points", "9 comments"], ["pg", "5 points"]])
    }

    @Test(arguments: [
        (#"{"author":{"login":"octo","type":"User","id":1}}"#, #"{"author":{"login":"cat","type":"User","id":2}}"#, "octo"),
        (#"{"author":"pg"}"#, #"{"author":"dang"}"#, "pg"),
        (#"{"owner":{"display_name":"J&#246;rg","user_type":"registered"}}"#, #"{"owner":{"display_name":"Ann","user_type":"registered"}}"#, "Jörg"),
        (#"{"artists":[{"name":"ROSALÍA"},{"name":"J Balvin"}]}"#, #"{"artists":[{"name":"Björk"}]}"#, "ROSALÍA"),
        (#"{"from":{"emailAddress":{"name":"Ann","address":"ann@x.org"}}}"#, #"{"from":{"emailAddress":{"name":"Raj","address":"raj@x.org"}}}"#, "Ann"),
    ])
    func theAuthorIsTextWhereverItIs(first: String, second: String, author: String) throws {
        // A page of two items whose author lives at the same place; the headline beside it.
        let item = { (n: Int, rest: String) in #"{"title":"headline number \#(n)","#  + rest.dropFirst() }
        #expect(try items("[\(item(1, first)),\(item(2, second))]").first?.details == [author])
    }

    @Test func anItemWithoutATitleKeyIsNamedByItsFirstShortText() throws {
        let json = #"[{"id":5,"url":"https://x.org","label":"a label"},{"id":6}]"#
        #expect(try items(json).map(\.title) == ["a label", "(untitled)"])
    }

    // MARK: A configured mapping

    @Test func aMappingOverridesTheGuesses() throws {
        let json = #"{"r":{"list":[{"title":"guess","headline":"<b>chosen</b> &amp; clean","meta":{"when":"2024-05-01","who":"ann","n":3},"go":"https://x.org/go","key":"k1"}]}}"#
        let mapping = FieldMapping(title: "headline", subtitle: ["meta.who", "meta.n", "missing"], link: "go", id: "key", time: "meta.when")
        let item = try #require(try items(json, itemPath: "r.list", fields: mapping).first)
        #expect(item.title == "chosen & clean")
        #expect(item.details == ["ann", "3"])
        #expect(item.url == "https://x.org/go")
        #expect(item.id == "k1")
        #expect(item.createdAt == Date(timeIntervalSince1970: 1_714_521_600))  // 2024-05-01
    }

    @Test func aMappedPathMayIndexAnArray() throws {
        let json = #"[{"name":"x","artists":[{"name":"a"},{"name":"b"}]}]"#
        let item = try #require(try items(json, fields: FieldMapping(subtitle: ["artists.1.name", "artists.9.name"])).first)
        #expect(item.details == ["b"])
    }

    // MARK: Times

    @Test func timesAreISOTextOrUnixSeconds() {
        #expect(Timestamp.date(from: .number("1700000000")) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(Timestamp.date(from: .number("1700000000000")) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(Timestamp.date(from: .string("1512085950.000216"))?.timeIntervalSince1970 == 1_512_085_950.000216)
        #expect(Timestamp.date(from: .string("2024")) == nil, "a year is not a time")
        #expect(Timestamp.date(from: .string("-1700000000")) == nil)
        // 2024-11-29T08:14:31.402Z, worked out by hand (see KnownAnswerTests).
        let offset = Timestamp.date(from: .string("2024-11-29T09:14:31.402+0100"))?.timeIntervalSince1970 ?? 0
        #expect(abs(offset - 1_732_868_071.402) < 1e-6)
    }

    @Test func ageText() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(Timestamp.age(of: now.addingTimeInterval(-180), now: now) == "3m ago")
        #expect(Timestamp.age(of: now.addingTimeInterval(-7200), now: now) == "2h ago")
        #expect(Timestamp.age(of: now.addingTimeInterval(-2), now: now) == "just now")
    }

    /// A date ahead of the clock is "just now" only within a clock's skew (five minutes); further
    /// ahead it says how far: an event to come, or a server whose clock is wrong.
    @Test func aDateInTheFutureSaysSo() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(Timestamp.age(of: now.addingTimeInterval(90), now: now) == "just now")
        #expect(Timestamp.age(of: now.addingTimeInterval(300), now: now) == "just now")
        #expect(Timestamp.age(of: now.addingTimeInterval(20 * 60), now: now) == "in 20m")
        #expect(Timestamp.age(of: now.addingTimeInterval(3 * 3600 + 5), now: now) == "in 3h")
        #expect(Timestamp.age(of: now.addingTimeInterval(2 * 86_400), now: now) == "in 2d")
        #expect(Timestamp.age(of: now.addingTimeInterval(3 * 365 * 86_400), now: now) == "in 3y")
        #expect(Timestamp.age(of: .distantFuture, now: now).hasPrefix("in "))
    }
}
