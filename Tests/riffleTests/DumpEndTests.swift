import DemoServer
import Foundation
import Testing

@Suite("riffle dump stops at the end of a feed")
struct DumpEndTests {
    /// A feed of three pages of three items whose end only shows as an empty page 4 (no flag, no total).
    static func threePagesThenEmpty() throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let items = (1...3).filter { _ in (1...3).contains(page) }.map { #"{"id": \#(page * 10 + $0), "title": "item \#(page)-\#($0)"}"# }
            return .json(#"{"items": [\#(items.joined(separator: ","))]}"#)
        }
    }

    /// The demo feed cut to 90 items: three pages, the last saying `"total_pages": 3`.
    static func threeDemoPages() throws -> DemoFeedServer {
        let items = try DemoFeed.load().items.prefix(90)
        return try DemoFeedServer(latency: .zero, timeline: .stored, feed: DemoFeed(items: Array(items), perPage: 30), maxAge: 3_600)
    }

    @Test(arguments: [["--pages", "1-200"], ["--all"], ["--pages", "1-"], ["--pages", "1-200", "--concurrency", "1"]])
    func aThreePageFeedCostsAtMostFourRequests(extra: [String]) async throws {
        let server = try Self.threePagesThenEmpty()
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = "http://127.0.0.1:\(server.port)/items?page={page}"

        let result = try await RiffleBinary.dumpIDs(template, cache: cache, extra)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "11\n12\n13\n21\n22\n23\n31\n32\n33\n")
        #expect(server.requestCount <= 4, "\(server.requests)")
        // Again from the cache: the stored end is known, nothing is asked.
        let again = try await RiffleBinary.dumpIDs(template, cache: cache, extra)
        #expect(again.stdout == result.stdout)
        #expect(server.requestCount <= 4, "\(server.requests)")
    }

    /// A URL given without `{page}`: page 1 is the URL as is, and the pages after it are the ones
    /// the answers link to (Django REST framework's `next`, `null` on the last), so every item prints
    /// and nothing past the last is asked for. A URL whose answer links nowhere is one page.
    @Test(arguments: [["--all"], ["--pages", "1-200", "--concurrency", "4"]])
    func aURLWithoutPageFollowsTheNextLinksItsAnswersGive(extra: [String]) async throws {
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            let host = request.headers.first { $0.name.lowercased() == "host" }?.value ?? ""
            let next = page < 3 ? "\"http://\(host)\(request.path)?page=\(page + 1)\"" : "null"
            let items = (1...3).map { #"{"id": \#(page * 10 + $0), "title": "item \#(page)-\#($0)"}"# }.joined(separator: ",")
            return .json(#"{"count": 9, "next": \#(next), "previous": null, "results": [\#(items)]}"#)
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let result = try await RiffleBinary.dumpIDs("http://127.0.0.1:\(server.port)/api/items/", cache: cache, extra)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "11\n12\n13\n21\n22\n23\n31\n32\n33\n")
        #expect(server.requests.map(\.target) == ["/api/items/", "/api/items/?page=2", "/api/items/?page=3"])

        let single = try await RiffleBinary.dumpIDs("http://127.0.0.1:\(server.port)/other?page=3", cache: cache, extra)
        #expect(single.status == 0 && single.stdout == "31\n32\n33\n", "\(single.stderr)")
        #expect(server.requestCount == 4)
    }

    @Test func firstPageNeedsAURLWithPage() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try await RiffleBinary.dumpIDs("http://127.0.0.1:9/api/items", cache: cache, ["--first-page", "0"])
        #expect(result.status == 2)
        #expect(result.stderr == "riffle: --first-page needs a URL with {page} where the page number goes\n")
    }

    /// WordPress says where its feed ends only in headers and answers the page after the last with
    /// 400: the dump ends at the last page, every item printed, without an error.
    @Test(arguments: [["--all"], ["--pages", "1-200", "--concurrency", "1"]])
    func aFeedWhoseHeadersSayItsEndEndsWithoutAnError(extra: [String]) async throws {
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard (1...3).contains(page) else { return .json(#"{"code": "rest_post_invalid_page_number"}"#, status: 400) }
            let items = (1...3).map { #"{"id": \#(page * 10 + $0), "title": "item \#(page)-\#($0)"}"# }
            return .json("[" + items.joined(separator: ",") + "]", headers: [("X-WP-Total", "9"), ("X-WP-TotalPages", "3")])
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = "http://127.0.0.1:\(server.port)/wp-json/wp/v2/posts?page={page}"

        let result = try await RiffleBinary.dumpIDs(template, cache: cache, extra)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "11\n12\n13\n21\n22\n23\n31\n32\n33\n")
        #expect(!result.stderr.contains("400"), "\(result.stderr)")
    }

    /// An offset feed asking for 100 items a page from a server that serves at most 50 (most APIs cap
    /// their limit): every item is printed once, each page starting where the one before ended,
    /// from page 1 (`--all`) and from a later page (`--pages 2-`, which learns the step from page 1).
    @Test(arguments: [(["--all"], 1...120), (["--pages", "2-"], 51...120), (["--all", "--concurrency", "1"], 1...120)])
    func anOffsetFeedWhoseServerCapsTheLimitPrintsEveryItemOnce(extra: [String], expected: ClosedRange<Int>) async throws {
        let server = try HTTPServer { request in
            let offset = max(0, Int(request.query("offset") ?? "") ?? 0)
            let limit = min(50, max(0, Int(request.query("limit") ?? "") ?? 50))
            let ids = offset < 120 ? Array((offset + 1)...min(120, offset + limit)) : []
            return .json(#"{"items": [\#(ids.map { #"{"id": \#($0), "title": "item \#($0)"}"# }.joined(separator: ","))]}"#)
        }
        defer { server.stop() }
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appending(path: "config/riffle"), withIntermediateDirectories: true)
        let feeds = #"{"feeds": {"capped": {"url": "http://127.0.0.1:\#(server.port)/items?offset={offset}&limit={limit}", "#
            + #""pagination": {"style": "offset", "limit": 100}}}}"#
        try Data(feeds.utf8).write(to: home.appending(path: "config/riffle/feeds.json"))

        let result = try await RiffleBinary.run(["dump", "capped", "--cache-dir", home.appending(path: "cache").path, "--format", "tsv",
                                                 "--fields", "id"] + extra, environment: ["XDG_CONFIG_HOME": home.appending(path: "config").path])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected.map { "\($0)\n" }.joined())
        #expect(server.requestCount <= 8, "\(server.requests.map(\.target))")
    }

    @Test func aPageThatSaysItIsTheLastEndsTheDumpWithoutAskingFurther() async throws {
        let demo = try Self.threeDemoPages()
        defer { demo.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let result = try await RiffleBinary.run(["dump", demo.template, "--cache-dir", cache.path, "--pages", "1-200", "--concurrency", "1",
                                           "--timings"])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(try DumpFixture.objects(result.stdout).count == 90)
        #expect(demo.requestCount == 3, "page 3 says total_pages 3: page 4 is never asked for")
        let summary = try #require(result.stderr.split(separator: "\n").last)
        #expect(summary.hasPrefix(#"{"pages": 3, "errors": 0"#), "\(summary)")
    }

    /// A one-page feed that says so on page 1, each way real APIs say it.
    static let lastPageBodies = [
        #"{"items": [{"id": 1, "title": "only"}], "has_more": false}"#,
        #"{"items": [{"id": 1, "title": "only"}], "page": 1, "total_pages": 1}"#,
        #"{"items": [{"id": 1, "title": "only"}], "next": null}"#,
    ]

    @Test(arguments: lastPageBodies, [["--pages", "1-200"], ["--all"]])
    func aFirstPageThatSaysItIsTheLastCostsOneRequestEvenFourAtATime(body: String, extra: [String]) async throws {
        let server = try HTTPServer { _ in .json(body) }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = "http://127.0.0.1:\(server.port)/items?page={page}"

        let result = try await RiffleBinary.run(["dump", template, "--cache-dir", cache.path, "--concurrency", "4", "--format", "tsv",
                                           "--fields", "id"] + extra)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "1\n")
        #expect(server.requests.map(\.target) == ["/items?page=1"], "no speculative request past a page that says it is the last")
    }

    @Test func anOpenRangeStartsWhereAskedAndRunsToTheEnd() async throws {
        let demo = try Self.threeDemoPages()
        defer { demo.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let ids = demo.feed.items.map { String($0.id) }

        let fromTwo = try await RiffleBinary.run(["dump", demo.template, "--cache-dir", cache.path, "--pages", "2-", "--fields", "id"])
        #expect(fromTwo.status == 0, "\(fromTwo.stderr)")
        #expect(try DumpFixture.objects(fromTwo.stdout).map { DumpFixture.text($0["id"]) } == Array(ids[30...]))

        let all = try await RiffleBinary.run(["dump", demo.template, "--cache-dir", cache.path, "--all", "--fields", "id"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try DumpFixture.objects(all.stdout).map { DumpFixture.text($0["id"]) } == ids)
        #expect((1...3).allSatisfy { demo.requestCount(page: $0) == 1 }, "each page once, the second run from the cache")
    }

    @Test func inAnOpenRangeAFailedPageEndsTheDump() async throws {
        let demo = try Self.threeDemoPages()
        defer { demo.stop() }
        demo.failPage = 2
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let result = try await RiffleBinary.run(["dump", demo.template, "--cache-dir", cache.path, "--all", "--fields", "id", "--concurrency", "2"])

        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("riffle: page 2: HTTP 500"), "\(result.stderr)")
        #expect(try DumpFixture.objects(result.stdout).count == 30, "page 1 only: where the feed ends past page 2 is unknown")
        #expect(demo.requestCount(page: 3) == 0)
    }

    /// A server that answers the page after its last with 204 No Content (or an empty 200): the dump
    /// ends there, every item printed, exit 0; the same answer for page 1 is one line saying so.
    @Test(arguments: [HTTPServer.Response(status: 204), .json("")], [["--all"], ["--pages", "1-9", "--concurrency", "1"]])
    func aPageAnsweredWithNoContentEndsTheDump(answer: HTTPServer.Response, extra: [String]) async throws {
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard request.path == "/items", (1...2).contains(page) else { return answer }
            return .json("[" + (1...3).map { #"{"id": \#(page * 10 + $0), "title": "item"}"# }.joined(separator: ",") + "]")
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let result = try await RiffleBinary.dumpIDs("http://127.0.0.1:\(server.port)/items?page={page}", cache: cache, extra)
        let none = try await RiffleBinary.dumpIDs("http://127.0.0.1:\(server.port)/none?page={page}", cache: cache, extra)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "11\n12\n13\n21\n22\n23\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr == "riffle: page 1: the server sent no content (an empty answer where the page's JSON should be)\n")
    }

    @Test func allAndPagesTogetherAreAUsageError() async throws {
        let result = try await RiffleBinary.run(["dump", try RiffleBinary.refusingTemplate(), "--all", "--pages", "1-2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--all and --pages cannot be used together"), "\(result.stderr)")
    }
}
