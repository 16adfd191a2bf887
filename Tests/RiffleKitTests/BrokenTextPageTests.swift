import DemoServer
import Foundation
import Testing
@testable import RiffleKit

/// A page with one character that is not text (an emoji cut in two by a server that splits UTF-16,
/// one byte of Latin-1 in a UTF-8 body) is shown whole, that character as U+FFFD, counted.
@Suite("one bad character costs one character, not the page")
struct BrokenTextPageTests {
    /// Three items; the second's title holds `broken` (raw bytes, spliced into the body as they are).
    static func body(_ broken: [UInt8]) -> Data {
        Data(#"{"items": [{"id": 1, "title": "first"}, {"id": 2, "title": "cut "#.utf8) + Data(broken)
            + Data(#" here"}, {"id": 3, "title": "third"}]}"#.utf8)
    }

    @Test(arguments: [
        (Array(#"\ud83d"#.utf8), "cut \u{FFFD} here"),         // a lone surrogate escape
        ([0xE9], "cut \u{FFFD} here"),                          // one Latin-1 byte (é)
        ([0xF0, 0x9F, 0x98], "cut \u{FFFD} here"),              // an emoji's bytes cut short
    ] as [([UInt8], String)])
    func aPageWithOneBadCharacterShowsAllItsItems(broken: [UInt8], title: String) async throws {
        let body = Self.body(broken)
        let server = try HTTPServer { _ in .json(body) }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appending(path: "riffle-broken-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let feed = try Feed(template: "http://127.0.0.1:\(server.port)/items?page={page}")

        let fetched = try await PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport()).load(1)
        #expect(fetched.source == .network)
        #expect(fetched.items.map(\.title) == ["first", title, "third"])
        #expect(fetched.replacedCharacters == 1)

        // Stored as sent, and read back the same from the disk by another loader.
        let stored = try await PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport()).load(1)
        #expect(stored.source == .cache)
        #expect(stored.data == body)
        #expect(stored.items.map(\.title) == ["first", title, "third"])
        #expect(stored.replacedCharacters == 1)
    }
}
