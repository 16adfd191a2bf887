import DemoServer
import Foundation
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleKit

/// The end of a feed as real APIs say it, beside their items: read by `Pagination.saysLast`, acted
/// on by `PageLoader` (the page is `isLastPage`, and the page after it is never requested).
@Suite("The end of a feed")
struct FeedEndTests {
    /// Whether page `number` of `json` is the last, for a feed paginated by `pagination`.
    func saysLast(_ json: String, page number: Int = 1, pagination: Pagination = Pagination(.pageNumber(firstPage: 1)),
                  pageSize: Int? = nil, itemPath: JSONPath? = nil) throws -> Bool {
        let document = try JSONDocument(Data(json.utf8))
        let list = try ItemExtractor.list(in: document, itemPath: itemPath, fields: FieldMapping())
        return pagination.saysLast(document, itemsAt: list.array, page: number, itemCount: list.items.count, pageSize: pageSize)
    }

    static let item = #"{"title":"t"}"#

    @Test(arguments: [
        // Flags: only a false more-flag or a true last-flag ends the feed.
        (#"{"items":[\#(item)],"has_more":false}"#, true),
        (#"{"items":[\#(item)],"has_more":true}"#, false),
        (#"{"items":[\#(item)],"hasMore":false}"#, true),
        (#"{"items":[\#(item)],"meta":{"has_next":false}}"#, true),
        (#"{"items":[\#(item)],"more":false}"#, true),
        (#"{"items":[\#(item)],"isLast":true}"#, true),
        (#"{"items":[\#(item)],"isLast":false}"#, false),
        (#"{"data":{"repo":{"issues":{"pageInfo":{"hasNextPage":false},"edges":[{"node":\#(item)}]}}}}"#, true),
        (#"{"data":{"repo":{"issues":{"pageInfo":{"hasNextPage":true},"edges":[{"node":\#(item)}]}}}}"#, false),
        // A next link or cursor that is there and empty.
        (#"{"count":9,"next":null,"previous":null,"results":[\#(item)]}"#, true),
        (#"{"count":9,"next":"https://x.org/?page=2","results":[\#(item)]}"#, false),
        (#"{"crates":[\#(item)],"meta":{"next_page":null,"total":9}}"#, true),
        (#"{"ok":true,"messages":[\#(item)],"response_metadata":{"next_cursor":""}}"#, true),
        (#"{"data":[\#(item)],"links":{"next":null}}"#, true),
        (#"{"items":[\#(item)]}"#, false),
        // Pages counted: page N of N.
        (#"{"page":3,"total_pages":3,"items":[\#(item)]}"#, true),
        (#"{"page":2,"total_pages":3,"items":[\#(item)]}"#, false),
        (#"{"current_page":"4","last_page":4,"data":[\#(item)]}"#, true),
        (#"{"pagination":{"page":1,"pages":1},"items":[\#(item)]}"#, true),
        (#"{"page":0,"total_pages":0,"items":[]}"#, true),
        // Algolia counts pages from 0: page 2 of nbPages 3 is the last.
        (#"{"hits":[\#(item)],"page":2,"nbPages":3}"#, true),
        (#"{"hits":[\#(item)],"page":1,"nbPages":3}"#, false),
        // What items say about themselves is not the page's word.
        (#"{"items":[{"title":"t","has_more":false,"next":null,"total_pages":1}]}"#, false),
        // Nor what an unrelated object beside them says.
        (#"{"items":[\#(item)],"comments_summary":{"has_more":false}}"#, false),
    ] as [(String, Bool)])
    func whatTheBodySays(json: String, last: Bool) throws {
        #expect(try saysLast(json) == last)
    }

    @Test func pageNofNWithoutAnEchoedPageNumber() throws {
        let json = #"{"_embedded":{"people":[\#(Self.item)]},"page":{"size":20,"totalElements":41,"totalPages":3,"number":2}}"#
        #expect(try saysLast(json, page: 3))
        #expect(try !saysLast(json, page: 2))
    }

    @Test func aZeroBasedFeedsEchoedPageCountsFromZero() throws {
        let json = #"{"page":2,"total_pages":3,"items":[\#(Self.item)]}"#
        #expect(try saysLast(json, page: 3, pagination: Pagination(.pageNumber(firstPage: 0))))
        #expect(try !saysLast(json, page: 3))
    }

    @Test func aTotalIsReachedByThePagesBeforeAndThisPagesItems() throws {
        let three = "[" + Array(repeating: Self.item, count: 3).joined(separator: ",") + "]"
        // An echoed offset (Jira's startAt, Spotify's offset).
        #expect(try saysLast(#"{"startAt":6,"maxResults":3,"total":9,"issues":\#(three)}"#))
        #expect(try !saysLast(#"{"startAt":3,"maxResults":3,"total":9,"issues":\#(three)}"#))
        #expect(try saysLast(#"{"albums":{"items":\#(three),"limit":3,"offset":6,"total":9,"next":"https://x.org"}}"#))
        // A page size in the body, or in the request's URL, times the pages before.
        #expect(try saysLast(#"{"per_page":3,"total":8,"items":\#(three)}"#, page: 3))
        #expect(try !saysLast(#"{"per_page":3,"total":10,"items":\#(three)}"#, page: 3))
        #expect(try saysLast(#"{"total":9,"items":\#(three)}"#, page: 3, pageSize: 3))
        #expect(try !saysLast(#"{"total":9,"items":\#(three)}"#, page: 2, pageSize: 3))
        #expect(try !saysLast(#"{"total":9,"items":\#(three)}"#, page: 3), "without a page size a total says nothing")
        // An offset feed knows its own page size.
        #expect(try saysLast(#"{"total":9,"items":\#(three)}"#, page: 3, pagination: Pagination(.offset(limit: 3))))
        // Numbers that do not fit never trap, and say nothing: a sum past Int.max, a count too large.
        #expect(try !saysLast(#"{"total":9223372036854775807,"offset":9223372036854775807,"items":\#(three)}"#))
        #expect(try !saysLast(#"{"total":9,"per_page":3,"items":\#(three)}"#, page: Int.max))
        #expect(try !saysLast(#"{"total":99999999999999999999999,"per_page":3,"items":\#(three)}"#, page: 2))
    }

    @Test func aConfiguredHasMorePathDecidesWhenThePageHasIt() throws {
        let pagination = Pagination(.pageNumber(firstPage: 1), hasMorePath: "meta.more")
        #expect(try saysLast(#"{"meta":{"more":false},"has_more":true,"items":[\#(Self.item)]}"#, pagination: pagination))
        #expect(try !saysLast(#"{"meta":{"more":true},"has_more":false,"items":[\#(Self.item)]}"#, pagination: pagination))
        #expect(try saysLast(#"{"has_more":false,"items":[\#(Self.item)]}"#, pagination: pagination))
    }

    @Test(arguments: ["stackexchange-questions", "hn-algolia", "spotify-new-releases", "jsonapi-articles", "graphql-github-issues",
                      "slack-conversations-history", "crates-io", "dockerhub-repositories", "jira-search"])
    func realFirstPagesAreNotTheLast(file: String) throws {
        let text = String(decoding: try Fixture.data(file + ".json"), as: UTF8.self)
        #expect(try !saysLast(text), "\(file)")
    }

    @Test func realLastPagesAreTheLast() throws {
        func edited(_ file: String, _ from: String, _ to: String) throws -> String {
            let text = String(decoding: try Fixture.data(file + ".json"), as: UTF8.self)
            #expect(text.contains(from))
            return text.replacingOccurrences(of: from, with: to)
        }
        #expect(try saysLast(edited("stackexchange-questions", #""has_more":true"#, #""has_more":false"#)))
        #expect(try saysLast(edited("hn-algolia", #""page":0"#, #""page":49"#)))
        #expect(try saysLast(edited("spotify-new-releases", #""offset": 0"#, #""offset": 97"#)))
        #expect(try saysLast(edited("graphql-github-issues", #""hasNextPage":true"#, #""hasNextPage":false"#)))
        #expect(try saysLast(edited("crates-io", #""next_page":"?page=2&per_page=3&sort=recent-downloads""#, #""next_page":null"#)))
        #expect(try saysLast(edited("jsonapi-articles", #""next": "http://example.com/articles?page[number]=4&page[size]=3","#, #""next": null,"#)))
        #expect(try saysLast(edited("jira-search", #""startAt":0,"maxResults":3,"total":41"#, #""startAt":38,"maxResults":3,"total":41"#)))
    }

    // MARK: Through the loader, against a server on 127.0.0.1

    func loader(_ server: HTTPServer, _ path: String, _ pagination: Pagination, cache: URL) throws -> PageLoader {
        let feed = try Feed(template: server.baseURL.absoluteString + path, pagination: pagination)
        return PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
    }

    @Test(arguments: [
        ("/numbered?page={page}", Pagination(.pageNumber(firstPage: 1))),
        ("/algolia?page={page}", Pagination(.pageNumber(firstPage: 0))),
        ("/totals?page={page}&per_page=2", Pagination(.pageNumber(firstPage: 1))),
    ] as [(String, Pagination)])
    func theLastPageIsKnownAndThePageAfterItIsNeverAskedFor(path: String, pagination: Pagination) async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, path, pagination, cache: cache)
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(pages.map(\.items.count) == [2, 2, 1])
        let past = try await loader.load(4)
        #expect(past.items.isEmpty && past.isLastPage)
        #expect(server.requests.count == 3, "a 3-page feed costs 3 requests")
        #expect(try await loader.load(3).isLastPage, "from disk too")
    }

    /// A server that serves fewer items a page than asked (GitHub caps `per_page` at 100) is counted
    /// by what it serves: counted by the request, page 2 stood for items 5-8 of 5 and ended the
    /// feed, item 5 never shown.
    @Test func aServerThatServesFewerItemsThanAskedIsCountedByWhatItServes() async throws {
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            return .json(#"{"total": 5, "results": \#(PaginationServer.items(from: (page - 1) * 2, count: 2))}"#)
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/capped?page={page}&per_page=4", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(\.items.count) == [2, 2, 1])
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(pages.map(\.totalPages) == [3, 3, 3])
        #expect(server.requests.count == 3)
    }

    /// WordPress says where its feed ends in headers beside a bare array (`X-WP-TotalPages`,
    /// `X-WP-Total`), and answers a page past the end with 400: the last page is known from the
    /// headers, when fetched and when read back from the disk, and the page after it never asked for.
    @Test(arguments: [("X-WP-TotalPages", "3"), ("X-WP-Total", "5"), ("X-Total-Count", "5"), ("X-Pagination-Page-Count", "3")])
    func aLastPageThatOnlyItsHeadersTellIsTheLast(name: String, value: String) async throws {
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard page <= 3 else { return .json(#"{"code": "rest_post_invalid_page_number"}"#, status: 400) }
            return .json(PaginationServer.items(from: (page - 1) * 2), headers: [(name, value)])
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/wp-json/wp/v2/posts?page={page}&per_page=2", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(\.isLastPage) == [false, false, true])
        #expect(try await loader.load(4).isLastPage)
        #expect(server.requests.count == 3)

        // Another run, from the disk.
        let again = try self.loader(server, "/wp-json/wp/v2/posts?page={page}&per_page=2", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        #expect(again.peekCachedPage(3)?.isLastPage == true)
        #expect(await again.cachedPage(3)?.isLastPage == true)
        #expect(try await again.load(3).isLastPage)
        #expect(try await again.load(4).items.isEmpty)
        #expect(server.requests.count == 3)
    }

    /// Hostile numbers where a page says how long the feed is, in its headers or beside its items:
    /// a product or sum past `Int.max`, a negative count or total. None traps, and none ends the feed
    /// early (body and headers alike: one arithmetic, `Pagination.countSaysLast`); the empty page
    /// after the last does.
    @Test(arguments: [
        ([("X-Total-Count", "9223372036854775807"), ("X-Per-Page", "9223372036854775807")], ""),
        ([("X-WP-Total", "5"), ("X-Per-Page", "9223372036854775807")], ""),
        ([("X-WP-TotalPages", "-1")], ""),
        ([("X-Total-Count", "-5")], ""),
        ([("X-WP-TotalPages", "99999999999999999999")], ""),
        ([], #", "total": 9223372036854775807, "offset": 9223372036854775807"#),
        ([], #", "total": 5, "per_page": 9223372036854775807"#),
        ([], #", "total": -1"#),
        ([], #", "total_pages": -3"#),
        ([], #", "page": -9223372036854775808, "total": 5, "per_page": 2"#),
    ] as [([(String, String)], String)])
    func hostileCountsNeitherTrapNorEndTheFeedEarly(headers: [(String, String)], members: String) async throws {
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard (1...3).contains(page) else { return .json(#"{"items": []}"#) }
            return .json(#"{"items": \#(PaginationServer.items(from: (page - 1) * 2))\#(members)}"#, headers: headers)
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/items?page={page}", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        var pages: [Page] = []
        for number in 1...5 {
            let page = try await loader.load(number)
            pages.append(page)
            if page.isLastPage { break }
        }
        #expect(pages.map(\.items.count) == [2, 2, 1, 0])
        #expect(server.requestCount == 4)
    }

    /// Asking for the page size a page is counted by changes nothing: page 1's count is what the
    /// loader remembers of page 1, not whatever page-1 count it was last asked about.
    @Test func countingAPageSizeRecordsNothing() async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/totals?page={page}&per_page=10", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        #expect(loader.countingPageSize(page: 2, itemCount: 2) == 10, "page 1 unknown: what the URL asks for")
        _ = try await loader.load(1)
        #expect(loader.countingPageSize(page: 2, itemCount: 2) == 5, "the server served 5 of the 10 asked for")
        #expect(loader.countingPageSize(page: 1, itemCount: 3) == 3)
        #expect(loader.countingPageSize(page: 2, itemCount: 2) == 5)
    }

    /// A feed of `items` items, five a page, with no end signal in body or headers, whose server
    /// refuses page `refusedFrom` and every page after it with `status` (as Django REST framework
    /// answers a page past the last with 404 "Invalid page.").
    static func refusingServer(items: Int, refusedFrom: Int, status: Int) throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard page < refusedFrom else { return .json(#"{"detail": "Invalid page."}"#, status: status) }
            let ids = (page - 1) * 5 < items ? Array(((page - 1) * 5 + 1)...min(items, page * 5)) : []
            return .json("[" + ids.map { #"{"id": \#($0), "title": "item \#($0)"}"# }.joined(separator: ",") + "]")
        }
    }

    /// A page refused right after a short page (12 items, five a page: page 3 holds two) is where the
    /// feed ends, whatever refusal a server uses for it and whether the URL says the page size:
    /// in this run, and in the next one, which knows the short page from the disk.
    @Test(arguments: [400, 404, 410, 416, 422], ["/posts?page={page}", "/posts?page={page}&per_page=5"])
    func aPageRefusedRightAfterAShortPageIsTheEnd(status: Int, path: String) async throws {
        let server = try Self.refusingServer(items: 12, refusedFrom: 4, status: status)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, path, Pagination(.pageNumber(firstPage: 1)), cache: cache)
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(\.items.count) == [5, 5, 2])
        let end = try await loader.load(4)
        #expect(end.isLastPage && end.items.isEmpty)

        let again = try self.loader(server, path, Pagination(.pageNumber(firstPage: 1)), cache: cache)
        let endAgain = try await again.load(4)
        #expect(endAgain.isLastPage && endAgain.items.isEmpty)
        #expect(server.requests.map { $0.query("page") } == ["1", "2", "3", "4", "4"])
    }

    /// What stays an error: a refusal after a full page (10 items: page 2 is full, nothing said it
    /// was the last), page 1 refused, a server error or a 403 after a short page, and a refusal of
    /// page 2 after a short page 1 when nothing says how many items a full page holds.
    @Test(arguments: [
        (10, 3, 404, "/posts?page={page}&per_page=5"),
        (10, 3, 400, "/posts?page={page}"),
        (12, 1, 404, "/posts?page={page}&per_page=5"),
        (12, 4, 500, "/posts?page={page}&per_page=5"),
        (12, 4, 403, "/posts?page={page}&per_page=5"),
        (3, 2, 404, "/posts?page={page}"),
    ] as [(Int, Int, Int, String)])
    func otherRefusalsStayErrors(items: Int, refusedFrom: Int, status: Int, path: String) async throws {
        let server = try Self.refusingServer(items: items, refusedFrom: refusedFrom, status: status)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, path, Pagination(.pageNumber(firstPage: 1)), cache: cache)
        for number in 1..<refusedFrom { #expect(try await !loader.load(number).isLastPage) }
        await #expect(throws: FeedError.self) { try await loader.load(refusedFrom) }
    }

    /// Whether a page is the last is known from its answer: asking for the page after it reads
    /// nothing back from the disk (its file gone, or replaced by one that says more follow, changes nothing).
    @Test func thePageAfterALastPageIsAnsweredWithoutReadingTheStoredPageBack() async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/numbered?page={page}", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        _ = try await loader.load(1)
        _ = try await loader.load(2)
        #expect(try await loader.load(3).isLastPage)
        try Data(#"{"page":3,"total_pages":9,"items":[{"title":"t"}]}"#.utf8).write(to: loader.store.bodyURL(3))

        let past = try await loader.load(4)

        #expect(past.items.isEmpty && past.isLastPage)
        #expect(server.requests.count == 3, "\(server.requests.map(\.target))")
    }

    /// A numbered feed's answers are told as they are read, before each page is stored: whether
    /// another page follows, and not for a page that repeats the one before.
    @Test func eachAnswerIsToldBeforeItsPageIsStored() async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let feed = try Feed(template: server.baseURL.absoluteString + "/numbered?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)))
        let store = PageStore(cacheDirectory: cache, feedID: feed.id)
        let told = Mutex<[String]>([])
        var configuration = PageLoader.Configuration()
        configuration.answered = { number, more in
            told.withLock { $0.append("\(number) \(more ? "more" : "last")\(FileManager.default.fileExists(atPath: store.bodyPath(number)) ? " stored" : "")") }
        }
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        for number in 1...3 { _ = try await loader.load(number) }

        #expect(told.withLock { $0 } == ["1 more", "2 more", "3 last"])
    }

    /// The answers that carry no content: 204 No Content, and a 200 whose JSON body is empty or blank,
    /// or holds a byte-order mark alone.
    static let noContentAnswers: [HTTPServer.Response] = [
        HTTPServer.Response(status: 204),
        .json(""),
        .json(" \r\n"),
        .json("\u{FEFF}\n"),
    ]

    /// A feed of full pages of three items (no end signal) whose server answers page `emptyFrom` (set
    /// as it runs) and every page after it with `answer`; numbered, with a `Link` header to the next.
    static func noContentServer(from emptyFrom: CacheShared<Int>, answer: HTTPServer.Response) throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard page < emptyFrom.withLock({ $0 }) else { return answer }
            let items = (1...3).map { #"{"id": \#(page * 10 + $0), "title": "item \#(page)-\#($0)"}"# }
            return .json("[" + items.joined(separator: ",") + "]", headers: [("Link", "</posts?page=\(page + 1)>; rel=\"next\"")])
        }
    }

    /// A page past the first that the server answers with no content is the feed's end, not
    /// "invalid JSON": for numbered pages and linked ones; and where the page was stored before, the
    /// stored one is kept as it was.
    @Test(arguments: noContentAnswers, [Pagination(.pageNumber(firstPage: 1)), Pagination(.linkHeader)])
    func aPageAnsweredWithNoContentIsTheEnd(answer: HTTPServer.Response, pagination: Pagination) async throws {
        let emptyFrom = CacheShared(3)
        let server = try Self.noContentServer(from: emptyFrom, answer: answer)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/posts?page={page}", pagination, cache: cache.appending(path: "fresh"))

        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]

        #expect(pages.map { $0.items.count } == [3, 3, 0])
        #expect(pages.map { $0.isLastPage } == [false, false, true])

        // Page 3 stored while the server had it, then reloaded once the server answers it with no content.
        emptyFrom.withLock { $0 = 4 }
        let before = try self.loader(server, "/posts?page={page}", pagination, cache: cache)
        for number in 1...3 { _ = try await before.load(number) }
        let stored = try Data(contentsOf: before.store.bodyURL(3))
        emptyFrom.withLock { $0 = 3 }
        for number in 1...2 { _ = try await before.load(number, policy: .reloadIgnoringCache) }
        let end = try await before.load(3, policy: .reloadIgnoringCache)
        #expect(end.isLastPage && end.items.isEmpty)
        #expect(try Data(contentsOf: before.store.bodyURL(3)) == stored)
    }

    /// Page 1 answered with no content is an error that says so in one line, and a page 1 stored
    /// before stays as it was.
    @Test(arguments: noContentAnswers)
    func aFirstPageAnsweredWithNoContentSaysSo(answer: HTTPServer.Response) async throws {
        let emptyFrom = CacheShared(9)
        let server = try Self.noContentServer(from: emptyFrom, answer: answer)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = try loader(server, "/posts?page={page}", Pagination(.pageNumber(firstPage: 1)), cache: cache)
        _ = try await loader.load(1)
        let stored = try Data(contentsOf: loader.store.bodyURL(1))
        emptyFrom.withLock { $0 = 1 }

        await #expect(throws: FeedError.noContent) { try await loader.load(1, policy: .reloadIgnoringCache) }

        #expect(FeedError.noContent.description == "the server sent no content (an empty answer where the page's JSON should be)")
        #expect(try Data(contentsOf: loader.store.bodyURL(1)) == stored)
        #expect(try await loader.load(1).items.count == 3)
    }

    /// A page answered gzip'd and cut short where only the connection's close ends the body (libcurl
    /// sees no fault) says it was cut short, not "invalid JSON", and the page stored before stays.
    @Test func aGzipPageCutShortSaysSoAndKeepsTheStoredPage() async throws {
        // The first half of a gzip'd page of 40 items; its first 373 bytes decode.
        let half = Data(base64Encoded: "H4sIAAAAAAACA23TO47CYBRD4a1Ef02Bbd5bQdMNRSTo0iH2PhRTODrprnS6T77395h/x23a76axzMvz8b3HvDxe0358dtN/FaqqGtVVg5qqB9RD1SPqseoJ9VT1jHquekG9VL2iXluDWFppbXC1lwg=")!
        let whole = #"[{"id": 1, "title": "a"}, {"id": 2, "title": "b"}, {"id": 3, "title": "c"}]"#
        let cut = CacheShared(false)
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            if cut.withLock({ $0 }) {
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n")
                connection.write(Array(half))
            } else {
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(whole.utf8.count)\r\nConnection: close\r\n\r\n" + whole)
            }
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let feed = try Feed(template: listener.url("/posts").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)))
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
        _ = try await loader.load(1)
        let stored = try Data(contentsOf: loader.store.bodyURL(1))
        cut.withLock { $0 = true }

        await #expect(throws: FeedError.request(.cutShort(host: "127.0.0.1:\(listener.port)", received: 373, expected: nil, ending: .midJSON))) {
            try await loader.load(1, policy: .reloadIgnoringCache)
        }

        #expect(try Data(contentsOf: loader.store.bodyURL(1)) == stored)
        #expect(try await loader.load(1).items.map(\.title) == ["a", "b", "c"])
    }

    @Test func anEmptyDetectedListIsTheEndNotAnError() async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        // Zero-based `/page` answers `{"hits": []}` past its five items.
        let loader = try loader(server, "/page?page={page}", Pagination(.pageNumber(firstPage: 0)), cache: cache)
        let empty = try await loader.load(4)
        #expect(empty.items.isEmpty && empty.isLastPage)
        #expect(empty.source == .network)
    }

    @Test func theDemoFeedEndsAtItsLastPage() async throws {
        let demo = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        defer { demo.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-end-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let loader = PageLoader(feed: try Feed(template: demo.template), cacheDirectory: cache, transport: CurlTransport())
        let pages = try DemoFeed.load().pageCount
        #expect(try await loader.load(pages - 1).isLastPage == false)
        #expect(try await loader.load(pages).isLastPage)
        let past = try await loader.load(pages + 1)
        #expect(past.items.isEmpty && past.isLastPage)
        #expect(demo.requestCount(page: pages + 1) == 0)
    }
}
