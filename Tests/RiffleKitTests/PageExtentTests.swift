import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

@Suite("How many pages and items a feed has, as its pages say")
struct PageExtentTests {
    @Test func algoliaSaysItsPagesAndHits() throws {
        let document = try Fixture.document("hn-algolia.json")
        let list = try ItemExtractor.list(in: document, itemPath: "hits", fields: FieldMapping())
        let extent = Pagination(.pageNumber(firstPage: 0)).extent(document, itemsAt: list.array)
        #expect(extent.pages == 50 && extent.items == 38_514_127)
    }

    @Test func aTotalAndThePageSizeOfTheURLMakeAPageCount() throws {
        let document = try Fixture.document("github-search-repositories.json")
        let list = try ItemExtractor.list(in: document, itemPath: nil, fields: FieldMapping())
        let extent = Pagination(.linkHeader).extent(document, itemsAt: list.array, pageSize: 30)
        #expect(extent.items == 412_873 && extent.pages == 13_763)
        #expect(Pagination(.linkHeader).extent(document, itemsAt: list.array).pages == nil, "no page size, no page count")
    }

    @Test func aPageThatSaysNothingHasNoExtentAndImplausibleNumbersAreIgnored() throws {
        let silent = try JSONDocument(Data(#"[{"id": 1, "title": "a"}]"#.utf8))
        #expect(Pagination(.pageNumber(firstPage: 1)).extent(silent) == (nil, nil))
        let wild = try JSONDocument(Data(#"{"total_pages": -3, "total": 99999999999, "items": [{"id": 1}]}"#.utf8))
        #expect(Pagination(.pageNumber(firstPage: 1)).extent(wild) == (nil, nil))
    }

    @Test func aLoadedPageCarriesTheExtent() async throws {
        let feed = try Feed(template: "https://hn.algolia.com/api/v1/search_by_date?tags=story&page={page}", firstPage: 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-extent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResponseCache(directory: folder)
        let client = Client(Client.Configuration(baseURL: feed.url(forPage: 1)), transport: CannedTransport(try Fixture.data("hn-algolia.json")))
        _ = try await PageLoader(feed: feed, cache: cache, client: client).load(1)
        let page = try #require(PageLoader(feed: feed, cache: ResponseCache(directory: folder), client: client).peekCachedPage(1))
        #expect(page.totalPages == 50 && page.totalItems == 38_514_127)
    }
}

@Suite("An item's author and score, as found")
struct ItemAuthorScoreTests {
    @Test(arguments: [("hn-algolia.json", "hits", "mkovalenko", 142), ("reddit-listing.json", "data.children", "AutoModerator", 6)])
    func theAuthorAndTheScoreAreKeptApart(file: String, path: String, author: String, score: Int) throws {
        let item = try #require(ItemExtractor.items(in: Fixture.data(file), itemPath: JSONPath(path)).first)
        #expect(item.author == author)
        #expect(item.score == score)
    }
}
