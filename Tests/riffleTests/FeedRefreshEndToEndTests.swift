import DemoServer
import Foundation
import Synchronization
import Testing

/// The feed list's `R`/`r` and `riffle feeds --refresh`: first pages revalidated, "N new" by id.
@Suite("riffle refreshes the feed list, in tmux and for scripts", .serialized)
struct FeedRefreshEndToEndTests {
    typealias Home = DailyEndToEndTests.Home

    /// Two feeds of bare-array pages: alpha gains items on top when `arrived` is raised; broken answers 500.
    final class Server: Sendable {
        typealias Count = SharedCount
        let arrived = Count()
        let server: HTTPServer

        init() throws {
            let arrived = arrived
            server = try HTTPServer { request in
                switch request.path {
                case "/alpha/1":
                    let count = arrived.value.withLock { $0 }
                    let titles = (0..<count).map { "alpha fresh \(count - $0)" } + ["alpha one", "alpha two", "alpha three"]
                    return .json(DailyEndToEndTests.page(titles), headers: [("ETag", "\"a\(count)\"")])
                case "/beta/1": return .json(DailyEndToEndTests.page(["beta one", "beta two"]))
                case "/broken/1": return .text("down for maintenance", status: 500)
                default: return .json("[]")
                }
            }
        }

        func feedsFile(broken: Bool = false) -> String {
            let base = server.baseURL.absoluteString
            let extra = broken ? #", "broken": {"description": "always 500", "url": "\#(base)/broken/{page}"}"# : ""
            return #"""
            {"feeds": {
              "alpha": {"description": "gains items", "url": "\#(base)/alpha/{page}", "maxAge": "1h"},
              "beta": {"description": "stays the same", "url": "\#(base)/beta/{page}"}\#(extra)
            }}
            """#
        }
    }

    /// `message` is in the message log (`L`, closed again with `q`).
    static func expectLogged(_ session: TmuxSession, _ message: String) async throws {
        try session.send("L")
        #expect(await session.waitFor { session.screen().contains(message) }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { row(session, "alpha").contains("new") }, "\(session.screen())")
    }

    static func row(_ session: TmuxSession, _ name: String) -> String {
        session.screen().split(separator: "\n").map(String.init).first { $0.hasPrefix(" \(name) ") } ?? ""
    }

    @Test func capitalRRefreshesEveryFeedAndOpeningOneShowsWhatWasFetched() async throws {
        let home = try Home()
        let server = try Server()
        defer { server.server.stop() }
        try home.write("feeds.json", server.feedsFile())

        // Given alpha read once (its page fresh for an hour), then back on the feed list
        let session = try home.session([])
        #expect(await session.waitFor { Self.row(session, "alpha").contains("not fetched") }, "\(session.screen())")
        // (alpha, the feeds file's first feed, is the list's first row)
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("alpha three") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { Self.row(session, "alpha").contains("3 new") }, "\(session.screen())")

        // When two items arrive and R refreshes the list
        server.arrived.set(2)
        let before = server.server.requests.count
        try session.send("R")
        // Then alpha says what arrived, by id; beta (never opened) is refreshed too, everything is new in it
        #expect(await session.waitFor { Self.row(session, "alpha").contains("5 new (+2)") }, "\(session.screen())")
        #expect(await session.waitFor { Self.row(session, "beta").contains("2 new (+2)") }, "\(session.screen())")
        // The summary shows as a toast for 3 s, then stays in the message log (`L`): read it there, so
        // a late poll cannot miss it.
        try await Self.expectLogged(session, "refreshed 2 feeds: 4 new items")
        // (alpha's request was conditional: it had a stored copy)
        #expect(server.server.requests.dropFirst(before).contains { $0.path == "/alpha/1" && $0.header("If-None-Match") == "\"a0\"" })

        // When alpha is opened (its old page would still be fresh), the fetched page shows
        try session.send("g", "Enter")
        #expect(await session.waitFor { session.screen().contains("alpha fresh 2") && session.screen().contains("alpha three") },
                "\(session.screen())")
        try session.send("q")
        // And back on the list, r refreshes the selected feed alone: nothing new now it was listed
        #expect(await session.waitFor { Self.row(session, "alpha").contains("new") && !Self.row(session, "alpha").contains("(+") },
                "\(session.screen())")
        try session.send("r")
        try await Self.expectLogged(session, "refreshed 1 feed: nothing new")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "\(session.screen())")
    }

    @Test func feedsRefreshJSONPrintsWhatIsNewInEachFeedForScripts() async throws {
        let home = try Home()
        let server = try Server()
        defer { server.server.stop() }
        try home.write("feeds.json", server.feedsFile(broken: true))
        let environment = home.environment

        // Given nothing read yet: every item of each first page is new; a failing feed says why, and the status is 1
        var result = try await RiffleBinary.run(["feeds", "--refresh", "--json", "--cache-dir", home.cache.path], environment: environment)
        #expect(result.status == 1, "\(result.stderr)")
        var parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        var json = try #require(parsed, "\(result.stdout)")
        #expect(json.map { $0["feed"] as? String } == ["alpha", "beta", "broken"])
        #expect(json[0]["new"] as? Int == 3 && json[0]["unseen"] as? Int == 3 && json[0]["error"] is NSNull)
        #expect(json[1]["new"] as? Int == 2)
        let failure = json[2]["error"] as? String ?? ""
        #expect(failure.contains("500") && json[2]["new"] is NSNull, "\(failure)")

        // When two arrive: page 1 is fetched again, and all five are new, none having been listed (a refresh lists nothing)
        try home.write("feeds.json", server.feedsFile())
        server.arrived.set(2)
        result = try await RiffleBinary.run(["feeds", "--refresh", "--json", "--cache-dir", home.cache.path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        json = try #require(parsed, "\(result.stdout)")
        #expect(json.map { $0["feed"] as? String } == ["alpha", "beta"])
        #expect(json[0]["new"] as? Int == 5 && json[0]["unseen"] as? Int == 5)
        // And without --json, one line a feed
        result = try await RiffleBinary.run(["feeds", "--refresh", "--cache-dir", home.cache.path], environment: environment)
        #expect(result.stdout.split(separator: "\n").first?.hasPrefix("alpha  5 new") == true, "\(result.stdout)")
        // And --json alone is refused, naming the option
        result = try await RiffleBinary.run(["feeds", "--json", "--cache-dir", home.cache.path], environment: environment)
        #expect(result.status == 2 && result.stderr.contains("--json"), "\(result.stderr)")
    }
}
