import DemoServer
import Foundation
import Testing

/// Search you can act on, in tmux against 127.0.0.1: newest first, `s` for the best match first,
/// Enter opens a match in its feed with its page loaded (offline from the stored pages), `c` its
/// comments; `riffle search` and `S` find what `riffle dump` printed.
@Suite("riffle in tmux: search results you can act on", .serialized)
struct SearchEndToEndTests {
    typealias Home = DailyEndToEndTests.Home

    /// Two feeds of two pages each, with times; alpha has comments. `zeppelin` is in page 2 of each:
    /// beta's the newest of everything (10 minutes old), alpha's a month old.
    static func server() throws -> HTTPServer {
        let now = Int(Date().timeIntervalSince1970)
        func item(_ id: String, _ title: String, minutesAgo: Int) -> String {
            #"{"id": "\#(id)", "title": "\#(title)", "url": "https://example.com/\#(id)", "created": \#(now - minutesAgo * 60)}"#
        }
        let pages = [
            "/a/1": [item("a1", "alpha one", minutesAgo: 60), item("a2", "alpha two", minutesAgo: 120)],
            "/a/2": [item("a3", "zeppelin over alpha", minutesAgo: 43_200), item("a4", "alpha four", minutesAgo: 44_000)],
            "/b/1": [item("b1", "beta one", minutesAgo: 180), item("b2", "beta two", minutesAgo: 240)],
            "/b/2": [item("b3", "zeppelin news in beta", minutesAgo: 10), item("b4", "beta four", minutesAgo: 300)],
        ]
        return try HTTPServer { request in
            if let items = pages[request.path] { return .json("[" + items.joined(separator: ", ") + "]") }
            if request.path == "/c/a3" { return .json(#"[{"author": "ann", "text": "a comment on the airship"}]"#) }
            return .json("[]")
        }
    }

    static func feeds(_ server: HTTPServer) -> String {
        let base = server.baseURL.absoluteString
        return #"""
        {"feeds": {
          "alpha": {"url": "\#(base)/a/{page}", "pagination": {"style": "page", "first": 1},
                    "fields": {"title": "title", "link": "url", "id": "id", "time": "created"},
                    "comments": {"url": "\#(base)/c/{id}", "author": "author", "text": "text"}},
          "beta": {"url": "\#(base)/b/{page}", "pagination": {"style": "page", "first": 1},
                   "fields": {"title": "title", "link": "url", "id": "id", "time": "created"}}
        }}
        """#
    }

    static func lines(_ session: TmuxSession) -> [String] { session.screen().split(separator: "\n").map(String.init) }

    @Test func searchFindsWhatDumpPrintedOpensMatchesInTheirFeedsAndTheirComments() async throws {
        let home = try Home()
        let server = try Self.server()
        defer { server.stop() }
        try home.write("feeds.json", Self.feeds(server))

        // Given alpha's two pages read in the browser
        var session = try home.session(["alpha"])
        #expect(await session.waitFor { session.screen().contains("alpha two") }, "\(session.screen())")
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("zeppelin over alpha") }, "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
        // And beta's two pages dumped, never browsed
        let dump = try await RiffleBinary.run(["dump", "beta", "--pages", "1-2", "--format", "tsv", "--cache-dir", home.cache.path],
                                        environment: ["XDG_CONFIG_HOME": home.config.path])
        #expect(dump.status == 0 && dump.stdout.contains("zeppelin news in beta"), "\(dump.stdout)\(dump.stderr)")

        // Then riffle search finds both, newest first (beta's, which only dump saw), or best first
        let found = try await RiffleBinary.run(["search", "zeppelin", "--format", "tsv", "--fields", "feed,title", "--cache-dir", home.cache.path],
                                         environment: ["XDG_CONFIG_HOME": home.config.path])
        #expect(found.status == 0, "\(found.stderr)")
        let titles: [String] = found.stdout.split(separator: "\n").map { line in String(line.split(separator: "\t").last ?? "") }
        #expect(titles == ["zeppelin news in beta", "zeppelin over alpha"], "\(found.stdout)")
        let best = try await RiffleBinary.run(["search", "zeppelin", "--sort", "relevance", "--cache-dir", home.cache.path],
                                        environment: ["XDG_CONFIG_HOME": home.config.path])
        #expect(best.status == 0 && best.stdout.split(separator: "\n").count == 2, "\(best.stdout)\(best.stderr)")

        // When S searches in the browser, the results are newest first, and s switches the order
        session = try home.session(["alpha"], width: 100, height: 24)
        #expect(await session.waitFor { session.screen().contains("alpha two") }, "\(session.screen())")
        try session.send("S")
        try session.send("-l", "zeppelin")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("match 1/2") }, "\(session.screen())")
        let beta = Self.lines(session).firstIndex { $0.contains("zeppelin news in beta") } ?? 99
        let alpha = Self.lines(session).firstIndex { $0.contains("zeppelin over alpha") } ?? -1
        #expect(beta < alpha, "newest first:\n\(session.screen())")
        try session.send("s")
        #expect(await session.waitFor { session.screen().contains("best match first") && session.screen().contains("match 1/2") }, "\(session.screen())")
        try session.send("s")
        #expect(await session.waitFor { session.screen().contains("newest first") && session.screen().contains("match 1/2") }, "\(session.screen())")

        // And c on alpha's match opens alpha at it, with its comments
        try session.send("j")
        #expect(await session.waitFor { session.screen().contains("match 2/2") }, "\(session.screen())")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("a comment on the airship") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("item 3/4") }, "alpha's list at the match:\n\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { session.screen().contains("match 2/2") }, "back to the results:\n\(session.screen())")

        // And with the server gone, Enter on beta's match opens beta, its page 2 read from the disk
        server.stop()
        try session.send("k")
        #expect(await session.waitFor { session.screen().contains("match 1/2") }, "\(session.screen())")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("zeppelin news in beta") && !session.screen().contains("match 1/2") },
                "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("item 3/4 · page 2") }, "beta's list at the match:\n\(session.screen())")
        let row = Self.lines(session).first { $0.contains("zeppelin news in beta") } ?? ""
        #expect(!row.isEmpty, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { session.screen().contains("match 1/2") }, "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }
}
