import DemoServer
import Foundation
import RiffleTestSupport
import Testing

/// A feed with no end signal whose server refuses the page past the last (Django REST framework's
/// 404 "Invalid page.", Flask-SQLAlchemy's 404, a static site's missing file): right after a short
/// page the refusal is the feed's end, in `riffle dump` and in the browser alike; after a full page
/// it stays an error.
@Suite("a page refused right after a short page ends the feed", .serialized)
struct RefusedPageEndToEndTests {
    /// `items` items, five a page, as a bare array; every page past them answered 404.
    static func server(items: Int) throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            guard page >= 1, (page - 1) * 5 < items else { return .json(#"{"detail": "Invalid page."}"#, status: 404) }
            let ids = ((page - 1) * 5 + 1)...min(items, page * 5)
            return .json("[" + ids.map { #"{"id": \#($0), "title": "post \#($0)"}"# }.joined(separator: ",") + "]")
        }
    }

    static func dump(_ server: HTTPServer, _ extra: [String]) async throws -> Spawn.Result {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = "http://127.0.0.1:\(server.port)/api/posts/?page={page}"
        return try await RiffleBinary.dumpIDs(template, cache: cache, extra)
    }

    @Test(arguments: [["--all"], ["--all", "--concurrency", "1"], ["--pages", "1-200"], ["--pages", "2-"]])
    func dumpEndsWithoutAnErrorAtARefusalAfterAShortPage(extra: [String]) async throws {
        let server = try Self.server(items: 12)
        defer { server.stop() }

        let result = try await Self.dump(server, extra)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (extra.contains("2-") ? 6...12 : 1...12).map { "\($0)\n" }.joined())
        #expect(!result.stderr.contains("404"), "\(result.stderr)")
    }

    /// Ten items: page 2 is full and nothing says it is the last, so page 3's 404 is reported (after
    /// every item was printed) and the dump exits 1.
    @Test func dumpReportsARefusalAfterAFullPage() async throws {
        let server = try Self.server(items: 10)
        defer { server.stop() }

        let result = try await Self.dump(server, ["--all"])

        #expect(result.status == 1)
        #expect(result.stdout == (1...10).map { "\($0)\n" }.joined())
        #expect(result.stderr.hasPrefix("riffle: page 3: HTTP 404"), "\(result.stderr)")
    }

    /// `G` goes to the last item, which loads the next page: the list ends with "end of feed" after
    /// post 12, not with the 404.
    @Test func theBrowserShowsTheEndOfTheFeed() async throws {
        let server = try Self.server(items: 12)
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path,
                                                "http://127.0.0.1:\(server.port)/api/posts/?page={page}"],
                                      width: 100, height: 24, environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"],
                                      socketPrefix: "refused-page")
        #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains("post 1") }, "\(session.screen())")
        for shown in ["post 10", "post 12", "end of feed"] {
            try session.send("G")
            #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains(shown) }, "\(session.screen())")
        }
        #expect(!session.screen().contains("404"), "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor(timeout: patienceInterval) { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")
        #expect(server.requests.map { $0.query("page") } == ["1", "2", "3", "4"], "\(server.requests.map(\.target))")
    }
}
