import DemoServer
import Foundation
import Synchronization
import Testing

/// riffle kept open all day, driven in tmux: seen marks, comments, the feed list, yank, search.
@Suite("riffle as a daily reader, in a real terminal (tmux)", .serialized)
struct DailyEndToEndTests {
    /// A cache folder and a config home (`XDG_CONFIG_HOME`) for one test, removed after.
    final class Home {
        let cache: URL
        let config: URL
        init() throws {
            cache = try RiffleBinary.temporaryDirectory()
            config = try RiffleBinary.temporaryDirectory()
            try FileManager.default.createDirectory(at: config.appending(path: "riffle"), withIntermediateDirectories: true)
        }
        deinit {
            try? FileManager.default.removeItem(at: cache)
            try? FileManager.default.removeItem(at: config)
        }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: config.appending(path: "riffle/\(name)"))
        }
        var environment: [String: String] {
            ["LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_CONFIG_HOME": config.path]
        }
        /// riffle in tmux on a socket named `daily-…`.
        func session(_ arguments: [String], width: Int = 100, height: Int = 24) throws -> TmuxSession {
            try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path] + arguments, width: width, height: height,
                            environment: environment, socketPrefix: "daily")
        }
    }

    /// A saved answer of one of the APIs, from RiffleKitTests' fixtures.
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../RiffleKitTests/Fixtures/\(name)").standardizedFileURL)
    }

    /// A page of `titles` as a bare array; ids are the titles with dashes for spaces.
    static func page(_ titles: [String]) -> String {
        let items = titles.map { title in
            let id = title.replacingOccurrences(of: " ", with: "-")
            return #"{"id": "\#(id)", "title": "\#(title)", "url": "https://example.com/\#(id)", "author": "ann"}"#
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    /// A server of bare-array pages: `pages[n]` at `/NAME/n`, an empty array past the last.
    static func server(_ feeds: [String: [[String]]]) throws -> HTTPServer {
        try HTTPServer { request in
            let parts = request.path.split(separator: "/").map(String.init)
            guard parts.count == 2, let pages = feeds[parts[0]], let number = Int(parts[1]) else { return .text("no such page", status: 404) }
            return .json(number >= 1 && number <= pages.count ? page(pages[number - 1]) : "[]")
        }
    }

    static func quit(_ session: TmuxSession) async throws {
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")
        #expect(session.exitStatus() == 0)
    }

    /// The status bar: the last line with text.
    static func statusBar(_ session: TmuxSession) -> String {
        session.screen().split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func seenMarksSurviveARestart() async throws {
        let home = try Home()
        let server = try Self.server(["p": [["alpha one", "bravo two", "charlie three"]]])
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/p/{page}"

        // Given the page listed (the first item becomes seen once it stays selected a moment)
        var session = try home.session([url])
        #expect(await session.waitFor { session.screen().contains("charlie three") && Self.statusBar(session).contains(" new") }, "\(session.screen())")
        // When everything is marked seen, then the second item unseen again
        try session.send("M")
        #expect(await session.waitFor { Self.statusBar(session).contains("nothing new") }, "\(session.screen())")
        try session.send("j", "m")
        #expect(await session.waitFor { Self.statusBar(session).contains("1 new") }, "\(session.screen())")
        try await Self.quit(session)

        // Then a new run remembers: one item new, the same one
        session = try home.session([url])
        #expect(await session.waitFor { Self.statusBar(session).contains("1 new") }, "\(session.screen())")
        try await Self.quit(session)
        // And with no colours the seen items carry a glyph the unseen one lacks
        session = try TmuxSession(command: ["env", "NO_COLOR=1", RiffleBinary.url.path, "--cache-dir", home.cache.path, url],
                                  width: 100, height: 24, environment: home.environment, socketPrefix: "daily")
        #expect(await session.waitFor { Self.statusBar(session).contains("1 new") }, "\(session.screen())")
        let lines = session.screen().split(separator: "\n").map(String.init)
        let alpha = try #require(lines.first { $0.contains("alpha one") }), bravo = try #require(lines.first { $0.contains("bravo two") })
        #expect(alpha.prefix(4) != bravo.prefix(4), "seen and unseen look alike:\n\(alpha)\n\(bravo)")
        try await Self.quit(session)
    }

    /// A feed on `server` in the shape of the `hn` preset: Algolia's search, comments from its items API.
    static func hackerNewsFeed(_ server: HTTPServer) -> String {
        let base = server.baseURL.absoluteString
        return #"""
        {"feeds": {"hn-saved": {
          "description": "Hacker News, saved answers on 127.0.0.1",
          "url": "\#(base)/api/v1/search_by_date?tags=story&page={page}",
          "pagination": {"style": "page", "first": 0}, "items": "hits",
          "fields": {"title": "title", "link": "url", "id": "objectID", "time": "created_at_i"},
          "comments": {"url": "\#(base)/api/v1/items/{objectID}", "page": "\#(base)/item?id={objectID}",
                       "items": "children", "children": "children", "author": "author", "text": "text", "time": "created_at_i"}
        }}}
        """#
    }

    static func hackerNewsServer() throws -> HTTPServer {
        let search = try fixture("hn-algolia.json"), item = try fixture("hn-algolia-item.json")
        return try HTTPServer { request in
            switch request.path {
            case "/api/v1/search_by_date": request.query("page") == "0" ? .json(search) : .json(#"{"hits": []}"#)
            case "/api/v1/items/42280701": .json(item)
            default: .text("not found", status: 404)
            }
        }
    }

    @Test func aSavedHackerNewsItemShowsItsCommentTreeWithTheServerGone() async throws {
        let home = try Home()
        let server = try Self.hackerNewsServer()
        defer { server.stop() }
        try home.write("feeds.json", Self.hackerNewsFeed(server))

        // Given the item's comments read once
        var session = try home.session(["hn-saved"], width: 110)
        #expect(await session.waitFor { session.screen().contains("Show HN: Riffle") }, "\(session.screen())")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("It scores every array") }, "\(session.screen())")
        #expect(server.requests.contains { $0.path == "/api/v1/items/42280701" })
        try session.send("q")
        try await Self.quit(session)

        // When the server is gone and riffle starts again
        server.stop()
        session = try home.session(["hn-saved"], width: 110)
        #expect(await session.waitFor { session.screen().contains("Show HN: Riffle") }, "\(session.screen())")
        try session.send("c")
        // Then the tree comes from the cache: the story first, authors (OP on the story's), text from HTML
        // (entities decoded) at 80 columns on a 110-column terminal, replies indented under a guide
        #expect(await session.waitFor { session.screen().contains("It scores every array") }, "\(session.screen())")
        let screen = session.unwrappedScreen()
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(screen.contains("tptacek") && screen.contains("How does it decide which array"), "\(screen)")
        #expect(screen.contains("when there's"), "the entity &#x27; was not decoded:\n\(screen)")
        #expect(!screen.contains("<p>") && !screen.contains("&#x27;"), "\(screen)")
        func indent(_ text: String) -> Int? {
            lines.first { $0.contains(text) }.map { $0.prefix { $0 == " " || $0 == "│" || $0 == "▾" || $0 == "▸" }.count }
        }
        let parent = try #require(indent("How does it decide")), reply = try #require(indent("It scores every array"))
        #expect(reply > parent, "the reply is not indented under its parent:\n\(screen)")
        #expect(screen.contains("github.com · by mkovalenko · 142 points"), "\(screen)")
        #expect(screen.contains("│ mkovalenko OP · "), "\(screen)")
        #expect(lines.allSatisfy { !$0.hasPrefix(" This") || $0.trimmingCharacters(in: .whitespaces).count <= 80 }, "\(screen)")
        // And Enter folds the first thread (its replies go) and unfolds it
        try session.send("Enter")
        #expect(await session.waitFor { !session.screen().contains("It scores every array") && session.screen().contains("How does it decide") },
                "\(session.screen())")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("It scores every array") }, "\(session.screen())")
        try session.send("q")
        try await Self.quit(session)
    }

    @Test func theFeedListShowsUnseenCountsAndWhenEachWasFetched() async throws {
        let home = try Home()
        let server = try Self.server(["a": [["alpha one", "alpha two", "alpha three"]], "b": [["beta one", "beta two"]]])
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        try home.write("feeds.json", #"""
        {"feeds": {
          "alpha": {"description": "the first feed", "url": "\#(base)/a/{page}", "pagination": {"style": "page", "first": 1}},
          "beta": {"description": "the second feed", "url": "\#(base)/b/{page}", "pagination": {"style": "page", "first": 1}}
        }}
        """#)

        // Given a feeds file with feeds, riffle opens on the list; nothing fetched yet
        let session = try home.session([])
        #expect(await session.waitFor { session.screen().contains("the second feed") }, "\(session.screen())")
        func row(_ name: String) -> String { session.screen().split(separator: "\n").map(String.init).first { $0.hasPrefix(" \(name) ") } ?? "" }
        #expect(await session.waitFor { row("alpha").contains("not fetched") && row("beta").contains("not fetched") }, "\(session.screen())")

        // When alpha is opened, one item marked seen, and q goes back
        let alphaIsFirst = session.screen().split(separator: "\n").map(String.init).firstIndex { $0.hasPrefix(" alpha ") }
            ?? 0 < session.screen().split(separator: "\n").map(String.init).firstIndex { $0.hasPrefix(" beta ") } ?? 0
        if !alphaIsFirst { try session.send("j") }
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("alpha three") && Self.statusBar(session).contains(" new") }, "\(session.screen())")
        // (everything seen, then the selected item unseen again: it stays so while selected)
        try session.send("M")
        #expect(await session.waitFor { Self.statusBar(session).contains("nothing new") }, "\(session.screen())")
        try session.send("j", "m")
        #expect(await session.waitFor { Self.statusBar(session).contains("1 new") }, "\(session.screen())")
        try session.send("q")

        // Then the list says alpha has 1 new and was fetched just now; beta still not fetched
        #expect(await session.waitFor { row("alpha").contains("1 new") && row("alpha").contains("fetched") }, "\(session.screen())")
        #expect(row("beta").contains("not fetched"), "\(session.screen())")
        #expect(session.screen().contains("1 with new items"), "\(session.screen())")
        try await Self.quit(session)
    }

    @Test func yankPutsTheLinkAndTheJSONInTmuxsBuffer() async throws {
        let home = try Home()
        let server = try Self.server(["p": [["alpha one", "bravo two"]]])
        defer { server.stop() }
        let session = try home.session([server.baseURL.absoluteString + "/p/{page}"])
        // tmux keeps what a program copies with OSC 52 as a paste buffer when set-clipboard is on.
        try session.tmux(["set-option", "-s", "set-clipboard", "on"])
        #expect(await session.waitFor { session.screen().contains("bravo two") }, "\(session.screen())")

        try session.send("j", "y")
        #expect(await session.waitFor { session.screen().contains("copied link: https://example.com/bravo-two") }, "\(session.screen())")
        #expect(await session.waitFor { (try? session.tmux(["show-buffer"])) == "https://example.com/bravo-two" },
                "buffer: \((try? session.tmux(["show-buffer"])) ?? "none")")

        try session.send("Y")
        #expect(await session.waitFor { session.screen().contains("copied JSON") }, "\(session.screen())")
        #expect(await session.waitFor { (try? session.tmux(["show-buffer"]))?.contains(#""title":"bravo two""#) == true },
                "buffer: \((try? session.tmux(["show-buffer"])) ?? "none")")
        try await Self.quit(session)
    }

    @Test func searchFindsAWordFromAnEarlierPageWithTheServerStopped() async throws {
        let home = try Home()
        let server = try Self.server(["p": [["alpha zeppelin", "bravo two"], ["charlie three", "delta four"]]])
        let url = server.baseURL.absoluteString + "/p/{page}"

        // Given two pages listed in the browser
        let session = try home.session([url])
        #expect(await session.waitFor { session.screen().contains("alpha zeppelin") }, "\(session.screen())")
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("delta four") }, "\(session.screen())")
        try await Self.quit(session)

        // When the server is gone
        server.stop()
        let environment = ["XDG_CONFIG_HOME": home.config.path]
        // Then a word from page 1 is found, as JSON lines and as TSV, in that feed and not in another
        let jsonl = try await RiffleBinary.run(["search", "zeppelin", "--cache-dir", home.cache.path], environment: environment)
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let lines = jsonl.stdout.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(#""title":"alpha zeppelin""#) && lines[0].contains(#""url":"https://example.com/alpha-zeppelin""#),
                "\(jsonl.stdout)")
        let tsv = try await RiffleBinary.run(["search", "zepp", "--format", "tsv", "--cache-dir", home.cache.path], environment: environment)
        #expect(tsv.status == 0 && tsv.stdout.contains("alpha zeppelin\thttps://example.com/alpha-zeppelin"), "\(tsv.stdout)\(tsv.stderr)")
        let here = try await RiffleBinary.run(["search", "zeppelin", "--feed", "127.0.0.1", "--format", "tsv", "--fields", "feed,title",
                                         "--cache-dir", home.cache.path], environment: environment)
        #expect(here.status == 0 && here.stdout == "127.0.0.1\talpha zeppelin\n", "\(here.stdout)\(here.stderr)")
        let elsewhere = try await RiffleBinary.run(["search", "zeppelin", "--feed", "hn", "--cache-dir", home.cache.path], environment: environment)
        #expect(elsewhere.status == 0 && elsewhere.stdout.isEmpty, "\(elsewhere.stdout)\(elsewhere.stderr)")
        let none = try await RiffleBinary.run(["search", "--cache-dir", home.cache.path], environment: environment)
        #expect(none.status == 2 && none.stderr.contains("needs words"), "\(none.stderr)")
        // Emoji and punctuation alone are no words (the index keeps none): said, not "nothing found"
        let emoji = try await RiffleBinary.run(["search", "🎉", "--cache-dir", home.cache.path], environment: environment)
        #expect(emoji.status == 2 && emoji.stdout.isEmpty
                && emoji.stderr.contains("riffle search looks for words: '🎉' has no letters or digits"), "\(emoji.stderr)")
    }

    @Test func configSetsKeysAndTheBrowserAndHelpShowsTheKeysInForce() async throws {
        let home = try Home()
        let server = try Self.hackerNewsServer()
        defer { server.stop() }
        try home.write("feeds.json", Self.hackerNewsFeed(server))
        // A "browser" that writes the URL it was given to a file.
        let opened = home.config.appending(path: "opened.txt")
        let browser = home.config.appending(path: "browser.sh")
        try Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".utf8).write(to: browser)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: browser.path)
        try home.write("config.json", #"{"feed": "hn-saved", "browser": "\#(browser.path) %s", "keys": {"x": "discussion", "C": "none"}}"#)

        // Given riffle with no argument: config.json's feed
        let session = try home.session([], width: 110, height: 40)
        #expect(await session.waitFor { session.screen().contains("Show HN: Riffle") }, "\(session.screen())")
        // When ? is pressed, the help shows x for the discussion page and no C
        try session.send("?")
        #expect(await session.waitFor { session.screen().contains("page in the browser") }, "\(session.screen())")
        let help = session.screen().split(separator: "\n").map(String.init)
        let row = try #require(help.first { $0.contains("page in the browser") })
        #expect(row.contains("│ c x "), "\(row)")
        try session.send("Escape")
        // Then C does nothing (y after it shows C was read) and x opens the discussion with the configured browser
        try session.send("C", "y")
        #expect(await session.waitFor { session.screen().contains("copied link") }, "\(session.screen())")
        #expect(!FileManager.default.fileExists(atPath: opened.path), "C still opens the discussion")
        try session.send("x")
        // The browser writes the file after creating it: wait for its whole content, not for the file.
        let expected = server.baseURL.absoluteString + "/item?id=42280701"
        #expect(await session.waitFor { (try? String(contentsOf: opened, encoding: .utf8)) == expected },
                "opened \((try? String(contentsOf: opened, encoding: .utf8)) ?? "nothing"); \(session.screen())")
        try await Self.quit(session)
    }

    @Test func watchRevalidatesPageOneAndAddsWhatIsNewWithoutMovingTheSelection() async throws {
        let home = try Home()
        // Page 1 with an ETag: a revalidation of an unchanged page is a 304.
        let page = Mutex((etag: "\"v1\"", titles: ["alpha one", "bravo two"]))
        let server = try HTTPServer { request in
            guard request.path == "/p/1" else { return .json("[]") }
            let (etag, titles) = page.withLock { ($0.etag, $0.titles) }
            if request.header("If-None-Match") == etag { return .init(status: 304, headers: [("ETag", etag)]) }
            return .json(Self.page(titles), headers: [("ETag", etag)])
        }
        defer { server.stop() }

        // Given riffle watching every 10 s, bravo selected
        let session = try home.session(["--watch", "10s", server.baseURL.absoluteString + "/p/{page}"])
        #expect(await session.waitFor { session.screen().contains("bravo two") && Self.statusBar(session).contains("watch 10s") },
                "\(session.screen())")
        try session.send("j")
        #expect(await session.waitFor { Self.statusBar(session).contains("item 2/2") }, "\(session.screen())")
        // When a watch finds page 1 unchanged, it cost a 304
        #expect(await session.waitFor(timeout: 60) { server.requests.contains { $0.header("If-None-Match") == "\"v1\"" } },
                "no revalidation: \(server.requests)")
        // And when a new item arrives at the top
        page.withLock { $0 = (etag: "\"v2\"", titles: ["charlie three", "alpha one", "bravo two"]) }
        // Then the next watch lists it, marked new, and bravo stays selected (now item 3 of 3)
        #expect(await session.waitFor(timeout: 60) { session.screen().contains("charlie three") }, "\(session.screen())")
        let lines = session.screen().split(separator: "\n").map(String.init)
        #expect(lines.first { $0.contains("charlie three") }?.contains("new") == true, "\(session.screen())")
        #expect(await session.waitFor { Self.statusBar(session).contains("item 3/3") }, "\(session.screen())")
        // And w stops watching
        try session.send("w")
        #expect(await session.waitFor { session.screen().contains("stopped watching") && !Self.statusBar(session).contains("watch") },
                "\(session.screen())")
        try await Self.quit(session)
    }

    @Test func duplicatesOncePositionSortReloadMarksAndSearchInTheBrowser() async throws {
        let home = try Home()
        @Sendable func item(_ id: String, _ title: String, _ points: Int) -> String {
            #"{"id": "\#(id)", "title": "\#(title)", "url": "https://example.com/\#(id)", "points": \#(points)}"#
        }
        // Page 2 repeats bravo (the feed shifted between requests); page 1 gains delta later.
        let first = Mutex([item("a", "alpha one", 5), item("b", "bravo two", 7)])
        let server = try HTTPServer { request in
            switch request.path {
            case "/p/1": .json("[" + first.withLock { $0 }.joined(separator: ", ") + "]")
            case "/p/2": .json("[" + [item("b", "bravo two", 7), item("c", "charlie three", 50)].joined(separator: ", ") + "]")
            default: .json("[]")
            }
        }
        defer { server.stop() }
        let session = try home.session([server.baseURL.absoluteString + "/p/{page}"])
        #expect(await session.waitFor { Self.statusBar(session).contains("item 1/2 · page 1") }, "\(session.screen())")

        // n: page 2 lists bravo once, and the status bar counts three items
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("charlie three") && Self.statusBar(session).contains("/3 · page 2") },
                "\(session.screen())")
        try session.send("g")
        #expect(await session.waitFor { session.screen().contains("alpha one") && session.screen().contains("charlie three") }, "\(session.screen())")
        #expect(session.screen().split(separator: "\n").filter { $0.contains("bravo two") }.count == 1, "\(session.screen())")

        // r on page 1, unchanged: no new items; then delta arrives and r lists it marked new
        try session.send("r")
        #expect(await session.waitFor { session.screen().contains("no new items") }, "\(session.screen())")
        first.withLock { $0.insert(item("d", "delta four", 1), at: 0) }
        try session.send("r")
        #expect(await session.waitFor { session.screen().contains("1 new item") && session.screen().contains("delta four") }, "\(session.screen())")
        let delta = session.screen().split(separator: "\n").first { $0.contains("delta four") } ?? ""
        #expect(delta.contains("new"), "\(session.screen())")
        // (alpha stays selected: now item 2 of 4)
        #expect(Self.statusBar(session).contains("item 2/4"), "\(session.screen())")

        // s twice: highest score first, said in the status bar
        try session.send("s", "s")
        #expect(await session.waitFor { Self.statusBar(session).contains("top score first") }, "\(session.screen())")
        let rows = session.screen().split(separator: "\n").map(String.init)
        #expect(rows.count > 1 && rows[1].contains("charlie three"), "\(session.screen())")

        // S: search everything seen, from the browser
        try session.send("S")
        try session.send("-l", "charl")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("search: charl") && session.screen().contains("charlie three") && session.screen().contains("match 1/1") },
                "\(session.screen())")
        try session.send("q")
        try await Self.quit(session)
    }
}
