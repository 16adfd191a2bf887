import DemoServer
import Foundation
import Testing

/// Every action says what it did, driven in tmux against 127.0.0.1: where `o` opened a link, why a
/// browser failed, the discussion of a story without a link.
@Suite("riffle in tmux: feedback for every action", .serialized)
struct FeedbackEndToEndTests {
    typealias Home = DailyEndToEndTests.Home

    /// riffle in tmux with `$BROWSER` set to `browser`.
    static func session(_ home: Home, _ arguments: [String], browser: URL) throws -> TmuxSession {
        var environment = home.environment
        environment["BROWSER"] = browser.path
        return try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", home.cache.path] + arguments, width: 100, height: 24,
                               environment: environment, socketPrefix: "feedback")
    }

    /// A graphical browser on a machine without a display: riffle says it handed the link over, then
    /// what the browser said when it failed.
    @Test func oSaysWhereTheLinkWentAndAFailingBrowserSaysWhy() async throws {
        let home = try Home()
        let server = try DailyEndToEndTests.server(["p": [["alpha one", "bravo two"]]])
        defer { server.stop() }
        let firefox = home.config.appending(path: "firefox")
        try LinkOpenerTests.Browsers.writeExecutable("""
        #!/bin/sh
        echo 'Error: no DISPLAY environment variable specified' >&2
        echo 'more detail nobody needs in a toast' >&2
        exit 1

        """, to: firefox.path)
        let session = try Self.session(home, [server.baseURL.absoluteString + "/p/{page}"], browser: firefox)
        #expect(await session.waitFor { session.screen().contains("bravo two") }, "\(session.screen())")

        try session.send("o")
        #expect(await session.waitFor { session.screen().contains("opened in firefox") }, "\(session.screen())")
        // The failure shows as a toast for 3 s, then stays in the message log (`L`, drawn from the log
        // as it grows): read it there, so a loaded machine's late poll cannot miss it.
        try session.send("L")
        #expect(await session.waitFor { session.screen().contains("firefox exited with status 1: Error: no DISPLAY environment variable specified") },
                "\(session.screen())")
        #expect(!session.screen().contains("more detail"), "only the first line: \(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }

    /// An Ask HN story has no link: `o` opens its discussion page, as the feed's comments name it.
    @Test func oOnAStoryWithoutALinkOpensItsDiscussionPage() async throws {
        let home = try Home()
        let server = try HTTPServer { request in
            switch request.path {
            case "/ask/1": .json(#"[{"id": "31", "title": "Ask HN: what do you read?", "author": "ann"}]"#)
            default: .json("[]")
            }
        }
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        try home.write("feeds.json", #"""
        {"feeds": {"ask": {"url": "\#(base)/ask/{page}", "pagination": {"style": "page", "first": 1},
                           "comments": {"url": "\#(base)/comments/{id}", "page": "\#(base)/item?id={id}", "text": "text"}}}}
        """#)
        let opened = home.config.appending(path: "opened.txt")
        let browser = home.config.appending(path: "record-url")
        try LinkOpenerTests.Browsers.writeExecutable("#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n", to: browser.path)
        let session = try Self.session(home, ["ask"], browser: browser)
        #expect(await session.waitFor { session.screen().contains("Ask HN: what do you read?") }, "\(session.screen())")

        try session.send("o")
        // The browser writes the file after creating it: wait for its whole content, not for the file.
        let expected = base + "/item?id=31"
        #expect(await session.waitFor { (try? String(contentsOf: opened, encoding: .utf8)) == expected },
                "opened \((try? String(contentsOf: opened, encoding: .utf8)) ?? "nothing"); \(session.screen())")
        #expect(await session.waitFor { session.screen().contains("opened in record-url") }, "\(session.screen())")
        #expect(!session.screen().contains("no link"), "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
    }

    /// The small things: `s s` leaves one toast, the end of the feed is said once, a first page that
    /// failed says so in the status bar.
    @Test func oneToastPerSubjectTheEndOnceAndAFailedFirstPage() async throws {
        let home = try Home()
        let server = try HTTPServer { request in
            switch request.path {
            case "/p/1": .json(DailyEndToEndTests.page(["alpha one", "bravo two"]))
            case "/p/2": .json("[]")
            default: .text("overloaded", status: 503)
            }
        }
        defer { server.stop() }
        var session = try home.session([server.baseURL.absoluteString + "/p/{page}"])
        #expect(await session.waitFor { session.screen().contains("bravo two") }, "\(session.screen())")

        try session.send("s", "s")
        #expect(await session.waitFor { session.screen().contains("sorted: top score first") }, "\(session.screen())")
        #expect(!session.screen().contains("sorted: newest first"), "\(session.screen())")
        try session.send("s")
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("end of feed") }, "\(session.screen())")
        try session.send("n", "n")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("item 2/2") }, "\(session.screen())")
        #expect(session.screen().components(separatedBy: "end of feed").count == 2, "said once:\n\(session.screen())")
        try await DailyEndToEndTests.quit(session)

        session = try home.session([server.baseURL.absoluteString + "/down/{page}"])
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("page 1 failed") }, "\(session.screen())")
        #expect(!session.screen().contains("0 items") && !session.screen().contains("nothing new"), "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
    }
}
