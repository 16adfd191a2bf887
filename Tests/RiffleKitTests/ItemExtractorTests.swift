import Foundation
import Testing
@testable import RiffleKit

@Suite("Finding items in real response shapes")
struct ItemExtractorTests {
    func items(_ fixture: String) throws -> [Item] {
        let url = try #require(Bundle.module.url(forResource: fixture, withExtension: "json", subdirectory: "Fixtures"))
        return try ItemExtractor.items(in: JSONParser.parse(Data(contentsOf: url)))
    }

    @Test func hackerNewsAlgoliaHits() throws {
        let items = try items("hn-algolia")
        #expect(items.map(\.title) == ["Show HN: A terminal browser for JSON feeds", "Rust 2.0 is not happening", "日本語のタイトル"])
        #expect(items[0].details == ["pg", "128 points"])
        #expect(items[0].id == "41000001")
        #expect(items[0].url == "https://example.com/riffle")
        #expect(items[0].createdAt == Date(timeIntervalSince1970: 1_795_986_251))
        #expect(items[2].url == nil)
    }

    @Test func gitHubIssuesBareArrayWithNestedUser() throws {
        let items = try items("github-issues")
        #expect(items.count == 2)
        #expect(items[0].title == "Crash in type checker with nested generics")
        #expect(items[0].details == ["octocat", "5 comments"])
        #expect(items[1].details.first == "hborla")
        #expect(items[1].createdAt == Timestamp.iso8601("2026-11-27T09:30:00Z"))
    }

    @Test func redditListingUnwrapsChildrenData() throws {
        let items = try items("reddit-listing")
        #expect(items.map(\.title) == ["Best way to parse JSON on Linux?", "Swift 6.3 released 🎉"])
        #expect(items[0].details == ["swiftdev", "57 points"])
        #expect(items[0].createdAt == Date(timeIntervalSince1970: 1_795_900_000))
    }

    @Test func lobstersWithOffsetTimestamps() throws {
        let items = try items("lobsters")
        #expect(items[0].title == "Writing a terminal UI without a framework")
        #expect(items[0].details == ["jcs", "24 points"])
        // 14:07:53 at UTC-6 is 20:07:53 UTC.
        #expect(items[0].createdAt == Timestamp.iso8601("2026-11-29T20:07:53Z"))
        #expect(items[1].url == nil, "an empty url is no link")
    }

    @Test func plainArrayUsesNameAsTitle() throws {
        let items = try items("bare-array")
        #expect(items.map(\.title) == ["first", "second", "third"])
        #expect(items.map(\.id) == ["1", "2", "3"])
    }

    @Test func devToArticles() throws {
        let items = try items("devto")
        #expect(items[0].title == "Building CLIs in Swift")
        #expect(items[0].details.first == "someone")
    }

    @Test func largestArrayOfObjectsWins() throws {
        let doc = try JSONParser.parse(Data(#"{"tags":[{"a":1}],"meta":{"results":[{"title":"x"},{"title":"y"}]}}"#.utf8))
        #expect(try ItemExtractor.items(in: doc).map(\.title) == ["x", "y"])
    }

    @Test func noArrayNamesTheKeysItSaw() throws {
        let doc = try JSONParser.parse(Data(#"{"status":"ok","count":3,"tags":["a","b"]}"#.utf8))
        #expect(throws: RiffleError.noItems(keys: ["status", "count", "tags"])) { try ItemExtractor.items(in: doc) }
        #expect(RiffleError.noItems(keys: ["status", "count"]).description == "no list of items in the response (top-level keys: status, count)")
    }

    @Test func ageText() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(Timestamp.age(of: now.addingTimeInterval(-180), now: now) == "3m ago")
        #expect(Timestamp.age(of: now.addingTimeInterval(-7200), now: now) == "2h ago")
        #expect(Timestamp.age(of: now.addingTimeInterval(-2), now: now) == "just now")
    }
}
