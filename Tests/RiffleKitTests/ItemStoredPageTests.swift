import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

/// Items read from a stored page (`ItemExtractor.items(inStoredPage:)`, over the tape's structure-only
/// mode) are the items of the same bytes fresh from the network; a cut page is an error, never a crash.
/// The tape's own stored mode is checked in RiffleJSON's tests (`JSONStoredDocumentTests`).
@Suite struct ItemStoredPageTests {
    /// String contents the stored mode does not check, as a title, a key and a value. Bytes that are
    /// not text (invalid UTF-8, an unpaired surrogate) the network's reading takes the same way, one
    /// U+FFFD each; broken syntax makes the page an error there.
    @Test(arguments: [
        ([0x22, 0x61, 0xFF, 0x62, 0x22], "a\u{FFFD}b", true),
        ([0x22, 0x01, 0x09, 0x00, 0x22], "\u{01}\t\u{00}", false),
        (Array(#""\ud800\u0041""#.utf8), "\u{FFFD}A", true),
        ([0x22, 0x5C, 0xC3, 0xA9, 0x22], "\u{FFFD}\u{FFFD}", false),
    ] as [([UInt8], String, Bool)])
    func uncheckedStringContentsMakeCleanItems(bytes: [UInt8], expected: String, fromTheNetworkToo: Bool) throws {
        let page = [UInt8]("[{\"title\":".utf8) + bytes + Array(",".utf8) + bytes + Array(":1}]".utf8)
        let items = try ItemExtractor.items(inStoredPage: Data(page))
        #expect(items.map(\.title) == [DisplayText.line(expected)])  // a title is one clean line
        #expect(items[0].fields == .object(JSONObject([("title", .string(expected)), (expected, .number("1"))])))
        if fromTheNetworkToo {
            #expect(try ItemExtractor.items(in: Data(page)) == items, "the page, one character lost")
        } else {
            #expect(throws: FeedError.self) { try ItemExtractor.items(in: Data(page)) }
        }
    }

    /// A real page cut at every byte: each prefix is an error (a cache miss), never a crash.
    @Test(arguments: ["hn-algolia", "reddit-listing"])
    func everyTruncationOfAPageThrows(fixture: String) throws {
        let url = try #require(Bundle.module.url(forResource: fixture, withExtension: "json", subdirectory: "Fixtures"))
        var bytes = Array(try Data(contentsOf: url))
        while let last = bytes.last, [0x20, 0x0A, 0x0D, 0x09].contains(last) { bytes.removeLast() }
        #expect(try ItemExtractor.items(inStoredPage: Data(bytes)) == ItemExtractor.items(in: Data(bytes)))
        for length in 0..<bytes.count {
            #expect(throws: FeedError.self, "\(length)") { try ItemExtractor.items(inStoredPage: Data(bytes[..<length])) }
        }
    }

    @Test(arguments: ["bare-array", "jsonplaceholder-posts"] + ItemCorpusTests.files)
    func realShapesGiveTheSameItems(fixture: String) throws {
        let url = try #require(Bundle.module.url(forResource: fixture, withExtension: "json", subdirectory: "Fixtures"))
        let data = try Data(contentsOf: url)
        let items = try ItemExtractor.items(inStoredPage: data)
        let fresh = try ItemExtractor.items(in: data)
        #expect(items == fresh)
        // Built from the lenient tape and from the strict one, every field is the same.
        #expect(items.map(\.fields) == fresh.map(\.fields))
    }

    @Test(arguments: 0..<6)
    func generatedPagesGiveTheSameItems(seed: UInt64) {
        var generator = FeedPageGenerator(seed: seed)
        for _ in 0..<60 {
            let data = Data(generator.page().utf8)
            let strict: Result<[Item], FeedError>
            do throws(FeedError) { strict = .success(try ItemExtractor.items(in: data)) } catch { strict = .failure(error) }
            let stored: Result<[Item], FeedError>
            do throws(FeedError) { stored = .success(try ItemExtractor.items(inStoredPage: data)) } catch { stored = .failure(error) }
            #expect(stored == strict, "\(String(decoding: data, as: UTF8.self).debugDescription)")
        }
    }

    @Test func itemsOfOneDocumentCompareByValue() throws {
        let document = try JSONDocument(Data("[{\"a\":1},{\"a\":1}]".utf8))
        let items = try ItemExtractor.items(in: document)
        #expect(items.count == 2)
        #expect(items[0] == items[1])  // different places, same content: equal by value
        #expect(items[0].fields == .object(JSONObject([("a", .number("1"))])))
    }
}
