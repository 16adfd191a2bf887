import DemoServer
import Foundation
import Synchronization
import RiffleStorage
import Testing
@testable import RiffleCache
@testable import RiffleKit

@Suite("Every pagination style against a server on 127.0.0.1")
final class PaginationTests: Sendable {
    let server: HTTPServer
    let cache: URL

    init() throws {
        server = try PaginationServer.start()
        cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-pagination-\(UUID().uuidString)")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: cache)
    }

    func loader(_ path: String, _ pagination: Pagination, environment: [String: String] = [:],
                itemPath: JSONPath? = nil, headers: [String: String] = [:], envelope: EnvelopeRule? = nil) throws -> PageLoader {
        var configuration = PageLoader.Configuration()
        configuration.environment = environment
        let feed = try Feed(template: server.baseURL.absoluteString + path, pagination: pagination, itemPath: itemPath,
                            headers: headers, envelope: envelope)
        return PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)
    }

    func titles(_ page: Page) -> [String] { page.items.map(\.title) }
    var targets: [String] { server.requests.map(\.target) }

    @Test func pageNumbersStartAtTheChosenFirstPage() async throws {
        let loader = try loader("/page?page={page}", Pagination(.pageNumber(firstPage: 0)))
        let first = try await loader.load(1)
        let second = try await loader.load(2)
        #expect(titles(first) == ["item 1", "item 2"])
        #expect(titles(second) == ["item 3", "item 4"])
        #expect(targets == ["/page?page=0", "/page?page=1"])
        #expect(FileManager.default.fileExists(atPath: loader.store.bodyURL(2).path))
    }

    @Test func offsetAndLimitCountItemsAndAnEmptyPageEndsTheFeed() async throws {
        let loader = try loader("/offset?offset={offset}&limit={limit}", Pagination(.offset(limit: 2)), itemPath: "data")
        let third = try await loader.load(3)
        #expect(titles(third) == ["item 5"])
        #expect(!third.isLastPage)
        let fourth = try await loader.load(4)
        #expect(fourth.items.isEmpty)
        #expect(fourth.isLastPage)
        // Page 1 first: where page 3 starts depends on what page 1 held (a server may cap the limit).
        #expect(targets == ["/offset?offset=0&limit=2", "/offset?offset=4&limit=2", "/offset?offset=6&limit=2"])
        let past = try await loader.load(5)  // after a stored empty page: nothing more is requested
        #expect(past.isLastPage && past.items.isEmpty)
        #expect(server.requestCount == 3)
    }

    /// Pages 1, 2, ... as `loader` loads them, up to the one that says it is the last (at most `limit`).
    static func pagesToTheLast(of loader: PageLoader, atMost limit: Int) async throws -> [Page] {
        var pages: [Page] = []
        for number in 1...limit {
            let page = try await loader.load(number)
            pages.append(page)
            if page.isLastPage { break }
        }
        return pages
    }

    /// A server that serves fewer items than the limit asks for (most cap it: asked for 4, it serves
    /// 2) has each page start where the one before ended, so no item is skipped: page N starts
    /// (N - 1) × what page 1 held, in this run, in the next one from the disk, and for a page asked
    /// for before page 1 (which is loaded first).
    @Test func anOffsetFeedWhoseServerCapsTheLimitSkipsNoItem() async throws {
        let path = "/capped?offset={offset}&limit={limit}"
        let loader = try loader(path, Pagination(.offset(limit: 4)), itemPath: "data")
        let pages = try await Self.pagesToTheLast(of: loader, atMost: 5)
        #expect(pages.flatMap(titles) == (1...5).map { "item \($0)" })
        #expect(targets == ["/capped?offset=0&limit=4", "/capped?offset=2&limit=4", "/capped?offset=4&limit=4", "/capped?offset=6&limit=4"])
        let report = loader.paginationReport(for: pages[0])
        #expect(report.next == server.baseURL.absoluteString + "/capped?offset=2&limit=4")

        // Another run reads page 1's count from its file: its later pages are the ones stored.
        let again = try self.loader(path, Pagination(.offset(limit: 4)), itemPath: "data")
        #expect(again.peekCachedPage(2).map(titles) == ["item 3", "item 4"])
        #expect(try await again.load(3).source == .cache)
        #expect(server.requestCount == 4)

        // A page asked for first, on an empty cache: page 1 is loaded before it.
        try FileManager.default.removeItem(at: cache)
        server.resetLog()
        let fresh = try self.loader(path, Pagination(.offset(limit: 4)), itemPath: "data")
        #expect(titles(try await fresh.load(2)) == ["item 3", "item 4"])
        #expect(targets == ["/capped?offset=0&limit=4", "/capped?offset=2&limit=4"])
    }

    /// A capped offset feed that says its total (in the body or in headers): the items before page
    /// N are counted by the step its pages are placed by, so the total ends the feed at its last
    /// page, not at the page the limit would have reached it (which lost item 5).
    @Test(arguments: ["body", "headers"])
    func aCappedOffsetFeedsTotalIsReachedAtItsLastPage(said: String) async throws {
        let loader = try loader("/capped?offset={offset}&limit={limit}&said=\(said)", Pagination(.offset(limit: 4)), itemPath: "data")
        let pages = try await Self.pagesToTheLast(of: loader, atMost: 5)
        #expect(pages.flatMap(titles) == (1...5).map { "item \($0)" })
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(server.requestCount == 3)
    }

    @Test func cursorPagesGoForwardThenBackOffline() async throws {
        let loader = try loader("/cursor", Pagination(.cursor(path: "data.after", parameter: "after")))
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(titles) == [["item 1", "item 2"], ["item 3", "item 4"], ["item 5"]])
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(loader.storedBody(1)?.metadata?.next == server.baseURL.absoluteString + "/cursor?after=c1")
        server.stop()

        let backTwo = try await loader.load(2, policy: .returnCacheDontLoad)
        let backOne = try await loader.load(1, policy: .returnCacheDontLoad)
        #expect(titles(backTwo) == ["item 3", "item 4"] && backTwo.source == .cache && !backTwo.isLastPage)
        #expect(titles(backOne) == ["item 1", "item 2"])
        let past = try await loader.load(4)  // no request: page 3 had no cursor
        #expect(past.isLastPage && past.items.isEmpty)
        #expect(server.requestCount == 3)
    }

    @Test func aLaterCursorPageLoadsTheEarlierOnesFirstInOrder() async throws {
        let loader = try loader("/cursor", Pagination(.cursor(path: "data.after", parameter: "after")))
        let third = try await loader.load(3)
        #expect(titles(third) == ["item 5"])
        #expect(targets == ["/cursor", "/cursor?after=c1", "/cursor?after=c2"])
        #expect(loader.storedPageNumbers() == [1, 2, 3])
    }

    @Test func aCursorPageWithoutMetadataIsFetchedAgainForItsNextURL() async throws {
        let loader = try loader("/cursor", Pagination(.cursor(path: "data.after", parameter: "after")))
        _ = try await loader.load(1)
        // Page 1's row loses its note (its URL and next link), as an older Riffle's row whose
        // metadata file was gone; a new loader remembers nothing of page 1.
        let index = try SQLiteDatabase(path: cache.appendingPathComponent("responses/index.sqlite").path, access: .readWrite)
        try index.execute("UPDATE entries SET note = NULL")
        let second = try await self.loader("/cursor", Pagination(.cursor(path: "data.after", parameter: "after"))).load(2)
        #expect(titles(second) == ["item 3", "item 4"])
        #expect(targets == ["/cursor", "/cursor", "/cursor?after=c1"])
    }

    @Test func aStoredCursorPageIsAMissOnceItsPredecessorPointsElsewhere() async throws {
        // Page 1's cursor changes between two fetches of it, as a live feed's does when items arrive.
        let generation = Mutex(1)
        let server = try HTTPServer { request in
            guard let after = request.query("after") else {
                let current = generation.withLock { $0 }
                return .json(#"{"data": {"after": "g\#(current)", "children": [{"id": 1, "title": "first"}]}}"#)
            }
            return .json(#"{"data": {"after": null, "children": [{"id": 2, "title": "after \#(after)"}]}}"#)
        }
        let feed = try Feed(template: server.baseURL.absoluteString + "/cursor", pagination: Pagination(.cursor(path: "data.after", parameter: "after")))
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
        #expect(titles(try await loader.load(2)) == ["after g1"])
        #expect(try await loader.load(2).source == .cache)

        generation.withLock { $0 = 2 }
        _ = try await loader.load(1, policy: .reloadIgnoringCache)
        let second = try await loader.load(2)
        #expect(titles(second) == ["after g2"] && second.source == .network)
        #expect(try await loader.load(2).source == .cache)
        #expect(server.requests.map(\.target) == ["/cursor", "/cursor?after=g1", "/cursor", "/cursor?after=g2"])
    }

    @Test func reloadingEveryCursorPageStartsAgainFromPageOne() async throws {
        let loader = try loader("/cursor", Pagination(.cursor(path: "data.after", parameter: "after")))
        _ = try await loader.load(3)
        server.resetLog()
        let pages = try await loader.reloadAll(through: 5)
        #expect(pages.map(\.number) == [1, 2, 3])
        #expect(pages.allSatisfy { $0.source == .network })
        #expect(targets == ["/cursor", "/cursor?after=c1", "/cursor?after=c2"])
    }

    @Test func linkHeaderNextIsFollowedAndItsAbsenceEndsTheFeed() async throws {
        let loader = try loader("/link", Pagination(.linkHeader))
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(titles) == [["item 1", "item 2"], ["item 3", "item 4"], ["item 5"]])
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(targets == ["/link", "/link?p=2", "/link?p=3"])
        let cachedSecond = try await loader.load(2)
        #expect(cachedSecond.source == .cache && !cachedSecond.isLastPage)
    }

    /// A Link-paged feed that moved: `/api/feed` redirects to `/v2/items`, whose two pages give a
    /// relative next link (`items?page=2`).
    static func movedLinkFeed() throws -> HTTPServer {
        try HTTPServer { request in
            switch request.path {
            case "/api/feed": return HTTPServer.Response(status: 301, headers: [("Location", "/v2/items")])
            case "/v2/items":
                let page = Int(request.query("page") ?? "") ?? 1
                let next: [(name: String, value: String)] = page < 2 ? [("Link", #"<items?page=\#(page + 1)>; rel="next""#)] : []
                return .json(#"[{"id": \#(page), "title": "page \#(page)"}]"#, headers: next)
            default: return .text("not found", status: 404)
            }
        }
    }

    /// A feed that moved (`/api/feed` answers with a redirect to `/v2/items`) gives relative next
    /// links relative to where its pages are now (RFC 3986 §5.1.3), not to the URL first asked.
    @Test func aRelativeNextLinkIsReadFromWhereTheRedirectLed() async throws {
        let server = try Self.movedLinkFeed()
        defer { server.stop() }
        let feed = try Feed(template: server.url("/api/feed").absoluteString, pagination: Pagination(.linkHeader))
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())

        #expect(try await loader.load(1).items.map(\.title) == ["page 1"])
        let second = try await loader.load(2)
        #expect(second.items.map(\.title) == ["page 2"] && second.isLastPage)
        #expect(server.requests.map(\.target) == ["/api/feed", "/v2/items", "/v2/items?page=2"])
    }

    /// A feed that moved to another origin (its URL answers with a redirect there): an item's link
    /// that is a path is read against where its page now is (RFC 3986 §5.1.3), as fetched and as
    /// read back from the disk in another run, so `o` opens the page the server meant.
    @Test func aRelativeItemLinkIsReadFromWhereTheRedirectLed() async throws {
        let target = try HTTPServer { request in
            guard request.path == "/v2/feed" else { return .text("not found", status: 404) }
            return .json(#"[{"id": 1, "title": "one", "url": "/item/1"}, {"id": 2, "title": "two", "url": "https://x.test/2"}]"#)
        }
        defer { target.stop() }
        let server = try HTTPServer { request in
            guard request.path == "/api/feed" else { return .text("not found", status: 404) }
            let location = target.baseURL.absoluteString + "/v2/feed?" + (request.query("page").map { "page=\($0)" } ?? "")
            return HTTPServer.Response(status: 301, headers: [("Location", location)])
        }
        defer { server.stop() }
        let feed = try Feed(template: server.baseURL.absoluteString + "/api/feed?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)))
        let expected = [target.baseURL.absoluteString + "/item/1", "https://x.test/2"]

        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
        #expect(try await loader.load(1).items.map(\.url) == expected)

        let again = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
        #expect(again.peekCachedPage(1)?.items.map(\.url) == expected)
        #expect(await again.cachedPage(1)?.items.map(\.url) == expected)
        let stored = try await again.load(1)
        #expect(stored.source == .cache && stored.items.map(\.url) == expected)
        #expect(try again.fieldPlan(forPage: 1) != nil)
    }

    /// A moved Link feed's page given back by the cache when the network fails (stale) still leads
    /// to the page after it: its relative next link is read against where its answer came from, kept
    /// in its note, not against the URL asked (which led to a page never stored: an error offline).
    @Test func aStaleMovedPageStillLeadsToItsNextPage() async throws {
        let server = try Self.movedLinkFeed()
        let feed = try Feed(template: server.url("/api/feed").absoluteString, pagination: Pagination(.linkHeader))
        var configuration = PageLoader.Configuration()
        configuration.maxAge = 0
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)
        #expect(try await loader.load(1).items.map(\.title) == ["page 1"])
        #expect(try await loader.load(2).items.map(\.title) == ["page 2"])
        server.stop()

        let offline = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)
        let first = try await offline.load(1)
        #expect(first.source == .stale && first.items.map(\.title) == ["page 1"])
        let second = try await offline.load(2)
        #expect(second.source == .stale && second.items.map(\.title) == ["page 2"])
    }

    @Test func hasMoreFalseEndsThePageNumberedFeed() async throws {
        let loader = try loader("/more?page={page}", Pagination(.pageNumber(firstPage: 1), hasMorePath: "has_more"))
        #expect(try await loader.load(2).isLastPage == false)
        #expect(try await loader.load(3).isLastPage == true)
        #expect(try await loader.load(3).isLastPage == true)  // from disk too
    }

    @Test func anEnvelopeFailureIsAnErrorAndNothingIsStored() async throws {
        let loader = try loader("/envelope?page={page}", Pagination(.pageNumber(firstPage: 1)),
                                envelope: EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: [],
                                                      messagePaths: [["error"]], missingFlag: .success))
        await #expect(throws: FeedError.request(.envelope(message: "invalid_auth"))) { try await loader.load(1) }
        #expect(loader.storedPageNumbers().isEmpty)
    }
}
