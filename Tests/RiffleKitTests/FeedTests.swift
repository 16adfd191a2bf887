import Foundation
import Testing
@testable import RiffleKit

@Suite("Feed templates")
struct FeedTests {
    @Test func pageNumbersFollowTheFirstPage() throws {
        let zeroBased = try Feed(template: "https://hn.algolia.com/api/v1/search_by_date?tags=story&page={page}", firstPage: 0)
        #expect(zeroBased.url(forPage: 1).absoluteString == "https://hn.algolia.com/api/v1/search_by_date?tags=story&page=0")
        let lobsters = try Feed(template: "https://lobste.rs/page/{page}.json")
        #expect(lobsters.url(forPage: 3).absoluteString == "https://lobste.rs/page/3.json")
        #expect(lobsters.name == "lobste.rs")
    }

    @Test func badTemplatesSayWhatIsWrong() {
        #expect(throws: Feed.TemplateError.missingPlaceholder("https://x.org/a")) { try Feed(template: "https://x.org/a") }
        #expect(throws: Feed.TemplateError.unsupportedScheme("ftp")) { try Feed(template: "ftp://x.org/{page}") }
        #expect(throws: Feed.TemplateError.unparsable("http:// bad {page}")) { try Feed(template: "http:// bad {page}") }
    }

    @Test func idIsAStableShortHash() throws {
        let feed = try Feed(template: "https://lobste.rs/page/{page}.json")
        #expect(feed.id == StableHash.hex(of: "https://lobste.rs/page/{page}.json"))
        #expect(feed.id.count == 16)
        #expect(feed.id.allSatisfy { $0.isHexDigit })
        // FNV-1a 64 of "a" is a published test vector.
        #expect(StableHash.hex(of: "a") == "af63dc4c8601ec8c")
    }
}
