import Foundation
import Testing
@testable import DemoServer

@Suite("Demo feed content")
struct DemoFeedContentTests {
    let feed: DemoFeed

    init() throws { feed = try DemoFeed.load() }

    /// Display columns, roughly: East Asian wide ranges and emoji count two.
    private func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let value = scalar.value
            if value == 0x200D || (0xFE00...0xFE0F).contains(value) { return total }
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFF00...0xFF60).contains(value) || (0x1F300...0x1FAFF).contains(value)
            return total + (wide ? 2 : 1)
        }
    }

    @Test func hasAtLeastTwentyFullPages() {
        #expect(feed.pageCount == 24)
        #expect(feed.items.count == 720)
        for page in 1...feed.pageCount { #expect(feed.items(onPage: page).count == 30) }
        #expect(feed.items(onPage: 25).isEmpty)
    }

    @Test func pageJSONHasRequiredFields() throws {
        let object = try JSONSerialization.jsonObject(with: feed.pageJSON(24)) as? [String: Any]
        let items = try #require(object?["items"] as? [[String: Any]])

        #expect(items.count == 30)
        for item in items {
            #expect(item["id"] is Int)
            #expect(item["score"] is Int)
            for key in ["title", "author", "url", "created_at", "body"] { #expect(item[key] is String, "\(key)") }
            let created = try #require(item["created_at"] as? String)
            #expect(created.hasSuffix("Z"))
            #expect((try? Date(created, strategy: .iso8601)) != nil)
        }
    }

    @Test func itemsAreWellFormed() {
        #expect(Set(feed.items.map(\.id)).count == feed.items.count)
        #expect(feed.items.allSatisfy { $0.url.hasPrefix("https://example.com/") })
        #expect(feed.items.allSatisfy { !$0.body.isEmpty && !$0.title.isEmpty && !$0.author.isEmpty })
        #expect(zip(feed.items, feed.items.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })
        let span = feed.items.first!.createdAt.timeIntervalSince(feed.items.last!.createdAt)
        #expect(span > 14 * 86_400)
    }

    @Test func titlesMixScriptsEmojiAndVeryLongLines() {
        let scalars = feed.items.map { Array($0.title.unicodeScalars) }
        let has = { (test: (Unicode.Scalar) -> Bool) in scalars.contains { $0.contains(where: test) } }

        #expect(has { (0x4E00...0x9FFF).contains($0.value) }, "CJK ideographs")
        #expect(has { (0x3040...0x30FF).contains($0.value) }, "Japanese kana")
        #expect(has { (0x1F300...0x1FAFF).contains($0.value) }, "emoji")
        #expect(has { (0x1F1E6...0x1F1FF).contains($0.value) }, "flag")
        #expect(has { $0.value == 0x200D }, "ZWJ sequence")
        #expect(feed.items.filter { columns($0.title) > 120 }.count >= 3)
        #expect(feed.items.contains { columns($0.title) > 120 && $0.title.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } })
        #expect(Set(feed.items.map(\.author)).contains { $0.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) } })
    }
}
