import Foundation
import Testing
@testable import RiffleCache

@Suite("Cache paths and stored headers, as read back from the index")
struct CachePathTests {
    static let body = String(repeating: "a1", count: 32) + "-0badf00d.body"

    @Test(arguments: [
        ("responses/" + body, ["responses"], body),
        ("feeds/ab5856619fb5905f/feed_12.json", ["feeds", "ab5856619fb5905f"], "feed_12.json"),
        ("comments/feed-1_x/item_9.tar.gz", ["comments", "feed-1_x"], "item_9.tar.gz"),
    ])
    func pathsTheCacheWritesAreRead(relative: String, folders: [String], name: String) throws {
        let path = try #require(CachePath(relative))
        #expect(path.folders == folders && path.name == name)
        #expect(path.description == relative)
    }

    @Test(arguments: [
        "", "/feeds/a/feed_1.json", "feeds/a/feed_1.json/", "feeds//feed_1.json", "../a/feed_1.json", "feeds/../feed_1.json",
        "feeds/a/.feed_1.json", "feeds/a/feed_1.", "feeds/a/feed_1..json", "feeds/a/feed_1", "feeds/a/feed 1.json",
        "feeds/a/b/feed_1.json", "feeds/feed_1.json", "responses/a/feed_1.json", "responses/feed_1.json",
        "responses/" + body + "x", "feeds/é/feed_1.json", "feeds/a/feed_1.jsoné", "feeds/a\u{301}/feed_1.json",
        "feeds/\u{301}a/feed_1.json", "feeds/a/feed_1.\u{301}json",
        "feeds/a/" + String(repeating: "x", count: 124) + ".json", String(repeating: "f", count: 65) + "/a/feed_1.json",
    ])
    func anythingElseIsNoneOfTheCaches(relative: String) {
        #expect(CachePath(relative) == nil, "\(relative)")
    }

    @Test func theLongestNamesAreStillTheCaches() {
        #expect(CachePath("feeds/a/" + String(repeating: "x", count: 123) + ".json") != nil)
        #expect(CachePath(String(repeating: "f", count: 64) + "/a/feed_1.json") != nil)
    }

    @Test func storedHeadersReadBackAsWritten() {
        let headers = ["etag": "\"v1\"", "content-type": "application/json; charset=utf-8", "x-note": "é \"quoted\"\n\\"]
        #expect(DiskCache.headers(fromText: DiskCache.headerText(headers)) == headers)
        #expect(DiskCache.headers(fromText: "{}") == [:])
        // The last of duplicated names wins; escaped names read as their text.
        #expect(DiskCache.headers(fromText: #"{"a": "1", "\u0061": "2", "b": "3"}"#) == ["a": "2", "b": "3"])
    }

    @Test(arguments: [#"{"a": 1}"#, #"{"a": "1", "b": null}"#, #"["a"]"#, #""a""#, "", "{", #"{"a": "1"} x"#, #"{"a": "\ud800"x}"#])
    func storedHeadersThatAreNotAnObjectOfStringsAreNone(text: String) {
        #expect(DiskCache.headers(fromText: text) == nil, "\(text)")
    }
}
