import Foundation
import RiffleBrowser
import RiffleKit
import RiffleReading
import Testing
@testable import riffle

/// `x` in the browser keeps a rule in the feeds file's entry of the open feed.
@Suite("x keeps its rule in the feeds file")
struct FeedShelfHideTests {
    /// A feeds file whose one feed is called `demo` (it opens in place of the built-in demo).
    static func shelf(feeds: String, in folder: URL) throws -> FeedShelf {
        let config = folder.appendingPathComponent("riffle")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{\"feeds\": {\(feeds)}}".utf8).write(to: config.appendingPathComponent("feeds.json"))
        let cache = folder.appendingPathComponent("cache")
        return FeedShelf(cache: ResponseCache(directory: cache), transport: CurlTransport(), log: ReadingLog(cacheDirectory: cache),
                         maxAge: nil, environment: ["XDG_CONFIG_HOME": folder.path, "HOME": folder.path])
    }

    @Test func aFeedTheFileCallsDemoKeepsTheRule() throws {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shelf = try Self.shelf(feeds: #""demo": {"url": "http://127.0.0.1:9/items?page={page}"}"#, in: folder)
        defer { shelf.stop() }
        let rule = try HideRule("author:bob")
        let (rules, message) = try shelf.addHideRule(rule, feed: nil, openedAs: "demo")
        #expect(rules == [rule], "\(message)")
        let written = try String(contentsOf: folder.appendingPathComponent("riffle/feeds.json"), encoding: .utf8)
        #expect(written.contains("author:bob"))
    }

    @Test func theBuiltInDemoHasNoEntryToKeepARuleIn() throws {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shelf = try Self.shelf(feeds: #""other": {"url": "http://127.0.0.1:9/items?page={page}"}"#, in: folder)
        defer { shelf.stop() }
        // Not sent to `riffle add NAME FEED`, which cannot add the demo.
        #expect { try shelf.addHideRule(try HideRule("author:bob"), feed: nil, openedAs: "demo") } throws: { error in
            "\(error)" == "the built-in demo is not in feeds.json and cannot be added, so it keeps no rules"
        }
        let written = try String(contentsOf: folder.appendingPathComponent("riffle/feeds.json"), encoding: .utf8)
        #expect(!written.contains("author:bob"))
    }
}
