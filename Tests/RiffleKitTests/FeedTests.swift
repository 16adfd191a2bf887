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

    @Test func placeholdersAreFilledWhereverTheyAre() throws {
        // Every occurrence, left to right, in the text as given.
        #expect(Pagination.filling("{page}", in: "/a/{page}?p={page}&q={pag}{page}", with: "12") == "/a/12?p=12&q={pag}12")
        #expect(Pagination.filling("{page}", in: "{page}", with: "-1") == "-1")
        #expect(Pagination.filling("{page}", in: "/no/placeholder", with: "3") == "/no/placeholder")
        #expect(Pagination.filling("{page}", in: "/{{page}}", with: "3") == "/{3}")
        // Text that is not ASCII is filled Character by Character, as the standard library does: a
        // combining mark after the brace makes another Character, which is not the placeholder.
        #expect(Pagination.filling("{page}", in: "/é/{page}", with: "4") == "/é/4")
        #expect(Pagination.filling("{page}", in: "/{page}\u{301}/{page}", with: "4") == "/{page}\u{301}/4")
        let offsets = try Feed(template: "https://x.org/items?offset={offset}&limit={limit}&again={offset}", pagination: Pagination(.offset(limit: 25)))
        #expect(offsets.url(forPage: 3).absoluteString == "https://x.org/items?offset=50&limit=25&again=50")
        let body = Pagination(.offset(limit: 10)).substitute(#"{"from": {offset}, "size": {limit}, "note": "日本"}"#, page: 2)
        #expect(body == #"{"from": 10, "size": 10, "note": "日本"}"#)
    }

    /// An offset feed's pages are placed by a step between 1 and its limit (what page 1 held when the
    /// server served fewer); any other step is the limit, and no limit, however odd, traps.
    @Test func anOffsetStepBelowTheLimitPlacesThePages() {
        let template = "/items?offset={offset}&limit={limit}"
        #expect(Pagination(.offset(limit: 100)).substitute(template, page: 3, offsetStep: 50) == "/items?offset=100&limit=100")
        for step in [0, -5, 100, 101, Int.max, Int.min] {
            #expect(Pagination(.offset(limit: 100)).substitute(template, page: 3, offsetStep: step) == "/items?offset=200&limit=100")
        }
        for limit in [0, -1, 1, Int.min] {
            _ = Pagination(.offset(limit: limit)).substitute(template, page: 1, offsetStep: 1)
            _ = Pagination(.offset(limit: limit)).substitute(template, page: 2, offsetStep: nil)
        }
        #expect(Pagination(.offset(limit: 0)).substitute(template, page: 3, offsetStep: 5) == "/items?offset=0&limit=0")
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

    // MARK: A page's identity

    @Test func everythingThatChangesAPagesURLChangesTheFeedsIdentity() throws {
        let template = "https://api.example.com/items?page={page}"
        let plain = try Feed(template: template)
        var zeroBased = plain
        zeroBased.firstPage = 0  // set after creation, as `--first-page` does
        let offset25 = try Feed(template: "https://api.example.com/items?offset={offset}", pagination: Pagination(.offset(limit: 25)))
        let offset50 = try Feed(template: "https://api.example.com/items?offset={offset}", pagination: Pagination(.offset(limit: 50)))
        let open = try Feed(template: template, pagination: Pagination(.pageNumber(firstPage: 1)), query: ["state": "open"])
        let closed = try Feed(template: template, pagination: Pagination(.pageNumber(firstPage: 1)), query: ["state": "closed"])
        let cursor = try Feed(template: "https://api.example.com/items", pagination: Pagination(.cursor(path: "next", parameter: "after")))
        let link = try Feed(template: "https://api.example.com/items", pagination: Pagination(.linkHeader))
        let ids = [plain, zeroBased, offset25, offset50, open, closed, cursor, link].map(\.id)
        #expect(Set(ids).count == ids.count, "\(ids)")
        // What does not change a URL leaves the identity alone.
        var renamed = plain
        renamed.name = "another name"
        renamed.fields = FieldMapping(title: "headline")
        renamed.maxAge = 60
        #expect(renamed.id == plain.id)
    }

    @Test func aPresetsResolvedArgumentIsPartOfTheIdentity() throws {
        let github = try #require(try PresetAssets.catalog(environment: [:])["github"])
        let swift = try github.feed(argument: "apple/swift"), llvm = try github.feed(argument: "apple/llvm")
        #expect(swift.id != llvm.id)
        #expect(swift.id == (try github.feed(argument: "apple/swift")).id)
    }

    @Test func theDemoFeedKeepsItsPagesAcrossItsChangingPort() throws {
        let first = try Feed(template: "http://127.0.0.1:50001/api/items?page={page}", cacheIdentity: "riffle-demo")
        let second = try Feed(template: "http://127.0.0.1:50002/api/items?page={page}", cacheIdentity: "riffle-demo")
        #expect(first.id == second.id)
        #expect(first.cacheIdentity == "riffle-demo")
        var zeroBased = second
        zeroBased.firstPage = 0
        #expect(zeroBased.id != first.id)
    }

    @Test func changingTheFirstPageNeverServesAnotherPagesFile() async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = server.baseURL.absoluteString + "/page?page={page}"
        let fromOne = PageLoader(feed: try Feed(template: template, firstPage: 1), cacheDirectory: cache, transport: CurlTransport())
        let fromZero = PageLoader(feed: try Feed(template: template, firstPage: 0), cacheDirectory: cache, transport: CurlTransport())
        #expect(try await fromOne.load(1).items.map(\.title) == ["item 3", "item 4"])
        let page = try await fromZero.load(1)
        #expect(page.items.map(\.title) == ["item 1", "item 2"])
        #expect(page.source == .network)
        #expect(server.requests.map(\.target) == ["/page?page=1", "/page?page=0"])
    }
}
