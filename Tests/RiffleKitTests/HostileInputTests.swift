import Foundation
import Testing
@testable import RiffleJSON
@testable import RiffleKit

/// Numbers and sizes a server picks: each is checked, none traps, and a page's items are bounded.
@Suite("no number or size a server sends can trap, and a page holds a bounded number of items")
struct HostileInputTests {
    @Test func aPageOverTheItemLimitIsAClearErrorBeforeAnyItemIsBuilt() throws {
        let count = ItemExtractor.maxItems + 1
        let body = Data(("{\"items\": [" + Array(repeating: "{}", count: count).joined(separator: ",") + "]}").utf8)

        #expect(throws: FeedError.tooManyItems(count: count, limit: ItemExtractor.maxItems)) { try ItemExtractor.items(in: body) }
        #expect(throws: FeedError.tooManyItems(count: count, limit: ItemExtractor.maxItems)) {
            try ItemExtractor.items(in: body, itemPath: "items")
        }
        #expect(FeedError.tooManyItems(count: count, limit: 50_000).description
            == "the page holds 50001 items, over the limit of 50000 a page (ask the server for smaller pages)")
    }

    @Test(arguments: ["1e300", "99999999999999999999999", "\"1e300\"", "1.7976931348623157e308", "\"10000-01-01T00:00:00Z\""])
    func aTimeNoFeedMeansIsNoTimeAndNeverTraps(created: String) throws {
        let items = try ItemExtractor.items(in: Data(#"[{"title": "x", "created_at": \#(created)}]"#.utf8))
        #expect(items.first?.createdAt == nil, "\(created)")
        // Any Date at all is aged without trapping, however far.
        for date in [Date.distantFuture, Date.distantPast, Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300)] {
            _ = Timestamp.age(of: date, now: Date())
        }
        #expect(Timestamp.age(of: Date(timeIntervalSince1970: 1e300), now: Date()) == "in 31709791y")
    }

    @Test(arguments: [
        #"{"page": -9223372036854775808, "total": 5, "per_page": 2, "items": [{"id": 1}]}"#,
        #"{"page": 9223372036854775807, "total_pages": 9223372036854775807, "items": [{"id": 1}]}"#,
        #"{"page": 9223372036854775807, "total": 9223372036854775807, "per_page": 9223372036854775807, "items": [{"id": 1}]}"#,
        #"{"offset": 9223372036854775807, "total": -1, "items": [{"id": 1}]}"#,
        #"{"nbPages": -9223372036854775808, "page": -9223372036854775808, "items": [{"id": 1}]}"#,
        #"{"page": "-9223372036854775808", "total_count": "9223372036854775807", "limit": "-1", "items": [{"id": 1}]}"#,
    ])
    func extremePagingNumbersNeverTrap(body: String) throws {
        let document = try JSONDocument(Data(body.utf8))
        for style in [Pagination.Style.pageNumber(firstPage: 1), .pageNumber(firstPage: 0), .offset(limit: 1_000_000_000)] {
            _ = Pagination(style).saysLast(document, page: 1_000_000, itemCount: 1, pageSize: 1_000_000_000)
        }
    }

    @Test func aDamagedPageNoteIsAMissNeverATrap() {
        for note in [#"{"url": 1e300}"#, #"{"url": null, "next": "n"}"#, "not json", #"{"next": "n"}"#, ""] {
            #expect(PageStore.metadata(note, fetchedAt: .distantPast, status: 200, etag: nil, lastModified: nil) == nil, "\(note)")
        }
        let kept = PageStore.metadata(PageStore.note(url: "https://x.test/?p=2", next: "https://x.test/?p=3"),
                                      fetchedAt: .distantPast, status: 200, etag: nil, lastModified: nil)
        #expect(kept?.url == "https://x.test/?p=2" && kept?.next == "https://x.test/?p=3")
        // The last of duplicated keys, escapes read; a next that is not text is none.
        let twice = PageStore.metadata(#"{"url": "https://x.test/1", "next": 3, "\u0075rl": "https://x.test/\u00e9"}"#,
                                       fetchedAt: .distantPast, status: 200, etag: nil, lastModified: nil)
        #expect(twice?.url == "https://x.test/é" && twice?.next == nil)
    }

    @Test func aBigTapeIsReservedOnceAndNeverRegrown() {
        // Past a megabyte the room covers the densest JSON (`[0,0,...]`, one entry per two bytes).
        #expect(JSONDocument.reservedEntries(forBytes: 84_000) == 84_000 / 24 + 8)
        let big = 4 << 20
        #expect(JSONDocument.reservedEntries(forBytes: big) >= big / 2 + 1)
    }
}
