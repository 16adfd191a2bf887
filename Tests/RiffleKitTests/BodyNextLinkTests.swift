import DemoServer
import Foundation
import Testing
@testable import RiffleKit

/// A feed given as a URL with no `{page}` (`riffle https://api.example.com/items`) is page 1 as is,
/// then the pages its answers link to: the `Link` header's `rel="next"`, else the next page's URL
/// the body gives beside its items, else none (a feed of one page).
@Suite("A next link in the body leads to the next page")
final class BodyNextLinkTests: Sendable {
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-body-next-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: cache) }

    /// The next page's URL `Pagination(.linkHeader)` reads from a corpus response, as the loader reads it.
    static func next(_ file: String, in half: Corpus.Half, headers: [String: String] = [:]) throws -> String? {
        let entry = try #require(try Corpus.entries(half).first { $0.file == file })
        let document = try JSONDocument(try Corpus.data(entry, in: half), validation: .structure)
        let list = try ItemExtractor.list(in: document, itemPath: nil, fields: FieldMapping())
        return Pagination(.linkHeader).nextURL(after: try #require(URL(string: entry.url)), answeredFrom: nil, headers: headers,
                                               document: document, array: list.array)?.absoluteString
    }

    /// Whole responses of real APIs (Fixtures/corpus): where each puts its next page, or says it has
    /// none, or gives a cursor token that is no URL.
    @Test(arguments: [
        // `next` at the root (Deezer), HAL's `_links.next.href` (Dryad), `links.next` (Open Library, JSON:API at DataCite).
        ("deezer-search-tracks.json", Corpus.Half.tune, "https://api.deezer.com/search?q=Soliloquy&index=25"),
        ("dryad-datasets.json", .tune, "https://datadryad.org/api/v2/datasets?page=2"),
        ("openlibrary-editions.json", .tune, "https://openlibrary.org/works/OL27258W/editions.json?limit=10&offset=10"),
        ("datacite-dois.json", .heldout, "https://api.datacite.org/dois?page%5Bnumber%5D=2&page%5Bsize%5D=5"),
        // A paging object inside a paging object (Paddle's `meta.pagination.next`), Facebook's `paging.next`.
        ("paddle-products.json", .fresh, "https://api.paddle.com/products?after=pro_01gsz4s0w61y0pp88528f1wvvb"),
        ("osf-node-children.json", .fresh, "https://api.test.osf.io/v2/nodes/4fjxr/children/?filter%5Btitle%5D=&page=2"),
        // None: `next_cursor: null` (Notion), a token (Twitter's `next_token`), an empty `pagination.urls` (Discogs).
        ("notion-database-query.json", .heldout, nil),
        ("twitter-v2-home-timeline.json", .heldout, nil),
        ("discogs-search.json", .tune, nil),
    ] as [(String, Corpus.Half, String?)])
    func aRealResponsesNextLinkIsFound(file: String, half: Corpus.Half, expected: String?) throws {
        #expect(try Self.next(file, in: half) == expected)
    }

    @Test func theLinkHeaderWinsOverTheBody() throws {
        let next = try Self.next("deezer-search-tracks.json", in: .tune,
                                 headers: ["link": #"<https://api.deezer.com/search?q=Soliloquy&page=2>; rel="next""#])
        #expect(next == "https://api.deezer.com/search?q=Soliloquy&page=2")
    }

    @Test(arguments: [
        (#"{"next": "?page=2", "results": [{"id": 1}]}"#, "https://api.test/v1/items?page=2"),
        (#"{"next": "/v2/items?page=2", "results": [{"id": 1}]}"#, "https://api.test/v2/items?page=2"),
        // From the API's base path (Mealie's): read under the page's own path, which ends with it.
        (#"{"next": "/items?page=2", "results": [{"id": 1}]}"#, "https://api.test/v1/items?page=2"),
        (#"{"next": "/v1/items?page=2", "results": [{"id": 1}]}"#, "https://api.test/v1/items?page=2"),
        (#"{"next": "/items/?page=2", "results": [{"id": 1}]}"#, "https://api.test/items/?page=2"),
        (#"{"next": "/tems?page=2", "results": [{"id": 1}]}"#, "https://api.test/tems?page=2"),
        (#"{"next": "/?page=2", "results": [{"id": 1}]}"#, "https://api.test/?page=2"),
        (#"{"next": "javascript:alert(1)", "results": [{"id": 1}]}"#, nil),
        (#"{"next": "file:///etc/passwd", "results": [{"id": 1}]}"#, nil),
        (#"{"next": "eyJwYWdlIjoyfQ", "results": [{"id": 1}]}"#, nil),
        (#"{"next": 2, "results": [{"id": 1}]}"#, nil),
        (#"{"results": [{"id": 1, "next": "https://api.test/v1/items?page=9"}]}"#, nil),
    ] as [(String, String?)])
    func onlyALinkBesideTheItemsIsFollowed(body: String, expected: String?) throws {
        let document = try JSONDocument(Data(body.utf8), validation: .structure)
        let list = try ItemExtractor.list(in: document, itemPath: nil, fields: FieldMapping())
        let next = Pagination(.linkHeader).nextURL(after: try #require(URL(string: "https://api.test/v1/items")), answeredFrom: nil,
                                                   headers: [:], document: document, array: list.array)
        #expect(next?.absoluteString == expected)
    }

    /// Django REST framework's shape: `{"count", "next", "previous", "results"}`, `next` an absolute
    /// URL, `null` on the last page.
    static func djangoFeed() throws -> HTTPServer {
        try HTTPServer { request in
            guard request.path == "/api/items/" else { return .text("not found", status: 404) }
            let page = Int(request.query("page") ?? "") ?? 1
            guard (1...3).contains(page) else { return .json(#"{"detail": "Invalid page."}"#, status: 404) }
            let host = request.headers.first { $0.name.lowercased() == "host" }?.value ?? ""
            let next = page < 3 ? "\"http://\(host)/api/items/?page=\(page + 1)\"" : "null"
            let items = (1...2).map { #"{"id": \#(page * 10 + $0), "title": "item \#(page)-\#($0)"}"# }.joined(separator: ",")
            return .json(#"{"count": 6, "next": \#(next), "previous": null, "results": [\#(items)]}"#)
        }
    }

    @Test func aURLWithoutPlaceholdersFollowsItsPagesNextLinksToTheEnd() async throws {
        let server = try Self.djangoFeed()
        defer { server.stop() }
        let template = server.url("/api/items/").absoluteString
        let feed = try Feed(template: template, pagination: Pagination.implied(by: template))
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())

        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]

        #expect(pages.map { $0.items.map(\.title) } == [["item 1-1", "item 1-2"], ["item 2-1", "item 2-2"], ["item 3-1", "item 3-2"]])
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(server.requests.map(\.target) == ["/api/items/", "/api/items/?page=2", "/api/items/?page=3"])
        // Read back from the disk by another loader, the chain is whole: nothing is asked again.
        let again = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
        #expect(try await again.load(2).items.map(\.title) == ["item 2-1", "item 2-2"])
        #expect(server.requestCount == 3)
    }

    /// Mealie's shape: `next` is written from the API's base path (`/recipes?page=2&perPage=2` for a
    /// page at `/api/recipes`), which read from the server's root was a 404 at page 2.
    @Test func aNextLinkFromTheAPIsBasePathLeadsToTheNextPage() async throws {
        let server = try HTTPServer { request in
            guard request.path == "/api/recipes" else { return .json(#"{"detail": "Not Found"}"#, status: 404) }
            let page = Int(request.query("page") ?? "") ?? 1
            let next = page < 3 ? "\"/recipes?page=\(page + 1)&perPage=2\"" : "null"
            let items = (1...2).map { #"{"id": "\#(page)-\#($0)", "name": "recipe \#(page)-\#($0)"}"# }.joined(separator: ",")
            return .json(#"{"page": \#(page), "per_page": 2, "total": 6, "total_pages": 3, "items": [\#(items)], "next": \#(next), "previous": null}"#)
        }
        defer { server.stop() }
        let template = server.url("/api/recipes?perPage=2").absoluteString
        let loader = PageLoader(feed: try Feed(template: template, pagination: Pagination.implied(by: template)),
                                cacheDirectory: cache, transport: CurlTransport())
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map { $0.items.map(\.title) } == [["recipe 1-1", "recipe 1-2"], ["recipe 2-1", "recipe 2-2"], ["recipe 3-1", "recipe 3-2"]])
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(server.requests.map(\.target) == ["/api/recipes?perPage=2", "/api/recipes?page=2&perPage=2", "/api/recipes?page=3&perPage=2"])
    }

    /// An API that numbers its pages (Algolia's `page` and `nbPages`) given without `{page}`: page 1
    /// is the whole feed, and it says why, and what to do; a page that counts no more says nothing.
    @Test func aPageThatCountsMorePagesButLinksToNoneSaysToPutPageInTheURL() async throws {
        let server = try HTTPServer { request in
            let pages = request.path == "/numbered" ? 50 : 1
            return .json(#"{"hits": [{"objectID": "1", "title": "one"}, {"objectID": "2", "title": "two"}], "page": 0, "nbPages": \#(pages)}"#)
        }
        defer { server.stop() }
        for (path, reason) in [("/numbered", Optional("the answers link to no page 2, though they count 50 pages: put {page} in the URL where the page number goes")),
                               ("/single", nil)] {
            let template = server.url(path).absoluteString
            let loader = PageLoader(feed: try Feed(template: template, pagination: Pagination.implied(by: template)),
                                    cacheDirectory: cache, transport: CurlTransport())
            let first = try await loader.load(1)
            #expect(first.items.map(\.title) == ["one", "two"] && first.isLastPage)
            #expect(first.endReason == reason)
            // The same from the disk.
            #expect(await loader.cachedPage(1)?.endReason == reason)
        }
    }

    @Test func theImpliedStyleFollowsThePlaceholders() {
        #expect(Pagination.implied(by: "https://x.test/a?page={page}", firstPage: 0) == Pagination(.pageNumber(firstPage: 0)))
        #expect(Pagination.implied(by: "https://x.test/a?offset={offset}&limit={limit}") == Pagination(.offset(limit: 25)))
        #expect(Pagination.implied(by: "https://x.test/a") == Pagination(.linkHeader))
    }
}
