import DemoServer
import Foundation
import Testing

/// The rules of feeds.json that hide items, through the real binary: dump and search print
/// everything unless `--hide`, a bad rule is one line, and the browser (in tmux) leaves hidden items
/// out, counts them and lists them with `H`.
@Suite("riffle: rules that hide items, end to end", .serialized)
struct HideEndToEndTests {
    typealias Home = DailyEndToEndTests.Home

    /// Page 1 of `news`: two items to read, three that rules hide (a word, a site, a field); page 2 all hidden, page 3 one to read.
    static func server() throws -> HTTPServer {
        func item(_ id: String, _ title: String, site: String = "example.com", kind: String = "story") -> String {
            #"{"id": "\#(id)", "title": "\#(title)", "url": "https://\#(site)/\#(id)", "author": "ann", "kind": "\#(kind)"}"#
        }
        let pages = [
            "/news/1": [item("n1", "zeta swift released"), item("n2", "zeta crypto crash"), item("n3", "zeta spam post", site: "www.spam.example"),
                        item("n4", "zeta hiring now", kind: "job"), item("n5", "zeta rust notes")],
            "/news/2": [item("n6", "more crypto"), item("n7", "even more crypto")],
            "/news/3": [item("n8", "page three story")],
        ]
        return try HTTPServer { request in .json("[" + (pages[request.path] ?? []).joined(separator: ", ") + "]") }
    }

    static func feeds(_ server: HTTPServer, rule: String = "site:spam.example") -> String {
        #"""
        {"hide": ["crypto"],
         "feeds": {"news": {"url": "\#(server.baseURL.absoluteString)/news/{page}",
                            "fields": {"title": "title", "link": "url", "id": "id", "author": "author"},
                            "hide": ["\#(rule)", ".kind:job"]}}}
        """#
    }

    static func titles(_ result: Spawn.Result) -> [String] {
        result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").last ?? "") }
    }

    @Test func dumpAndSearchPrintEverythingUnlessHideAndABadRuleIsOneLine() async throws {
        let home = try Home()
        let server = try Self.server()
        defer { server.stop() }
        try home.write("feeds.json", Self.feeds(server))
        func run(_ arguments: [String]) async throws -> Spawn.Result {
            try await RiffleBinary.run(arguments + ["--cache-dir", home.cache.path], environment: ["XDG_CONFIG_HOME": home.config.path])
        }
        // dump prints every item; --hide leaves out what the browser leaves out
        let all = try await run(["dump", "news", "--format", "tsv", "--fields", "title"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(Self.titles(all) == ["zeta swift released", "zeta crypto crash", "zeta spam post", "zeta hiring now", "zeta rust notes"])
        let shown = try await run(["dump", "news", "--format", "tsv", "--fields", "title", "--hide"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(Self.titles(shown) == ["zeta swift released", "zeta rust notes"])
        // search finds every item dump filed; --hide applies the rules the log can read (not a field's)
        let found = try await run(["search", "zeta", "--format", "tsv", "--fields", "title"])
        #expect(found.status == 0 && Self.titles(found).count == 5, "\(found.stdout)\(found.stderr)")
        let kept = try await run(["search", "zeta", "--format", "tsv", "--fields", "title", "--hide"])
        #expect(Set(Self.titles(kept)) == ["zeta swift released", "zeta hiring now", "zeta rust notes"], "\(kept.stdout)\(kept.stderr)")
        // and says, in one line, which rule it could not apply, rather than seem to
        #expect(kept.stderr == "riffle: --hide: '.kind:job' reads a field of the item's JSON, which search does not keep, so it hides nothing here "
                + "(riffle dump --hide applies it)\n", "\(kept.stderr)")
        #expect(found.stderr.isEmpty && shown.stderr.isEmpty, "\(found.stderr)\(shown.stderr)")
        // A bad rule: one line naming the file, the feed and the rule, status 2, nothing printed
        try home.write("feeds.json", Self.feeds(server, rule: "autor:ann"))
        let bad = try await run(["dump", "news"])
        #expect(bad.status == 2 && bad.stdout.isEmpty)
        #expect(bad.stderr.hasSuffix("feeds.json: feed 'news': field 'hide': 'autor:ann': unknown kind 'autor:' (expected author:NAME, site:DOMAIN, title:WORDS or .PATH:TEXT)\n"),
                "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    @Test func searchLimitCountsWhatIsPrintedWhenRulesHideTheNewest() async throws {
        // Given a feed whose four newest items a rule hides, and three older ones to read, dumped
        let now = Int(Date().timeIntervalSince1970)
        func item(_ id: Int, _ title: String) -> String {
            #"{"id": "q\#(id)", "title": "\#(title)", "url": "https://example.com/q\#(id)", "created": \#(now - id * 60)}"#
        }
        let page = (1...4).map { item($0, "quokka crypto \($0)") } + (5...7).map { item($0, "quokka story \($0)") }
        let server = try HTTPServer { request in .json(request.path == "/q/1" ? "[" + page.joined(separator: ", ") + "]" : "[]") }
        defer { server.stop() }
        let home = try Home()
        try home.write("feeds.json", #"""
            {"feeds": {"q": {"url": "\#(server.baseURL.absoluteString)/q/{page}",
                             "fields": {"title": "title", "link": "url", "id": "id", "time": "created"}, "hide": ["crypto"]}}}
            """#)
        func run(_ arguments: [String]) async throws -> Spawn.Result {
            try await RiffleBinary.run(arguments + ["--cache-dir", home.cache.path], environment: ["XDG_CONFIG_HOME": home.config.path])
        }
        let dump = try await run(["dump", "q"])
        #expect(dump.status == 0, "\(dump.stderr)")
        // When searching for two with --hide: the two newest items the rules leave, not none
        let two = try await run(["search", "quokka", "--limit", "2", "--hide", "--format", "tsv", "--fields", "title"])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(Self.titles(two) == ["quokka story 5", "quokka story 6"], "\(two.stdout)\(two.stderr)")
        #expect(two.stderr.isEmpty, "no field rule, nothing to say: \(two.stderr)")
        // More than the rules leave: every one of them, once
        let many = try await run(["search", "quokka", "--limit", "5", "--hide", "--format", "tsv", "--fields", "title"])
        #expect(Self.titles(many) == ["quokka story 5", "quokka story 6", "quokka story 7"], "\(many.stdout)\(many.stderr)")
        // Without --hide the limit is of every item, as before
        let all = try await run(["search", "quokka", "--limit", "2", "--format", "tsv", "--fields", "title"])
        #expect(Self.titles(all) == ["quokka crypto 1", "quokka crypto 2"], "\(all.stdout)\(all.stderr)")
    }

    @Test func theBrowserLeavesHiddenItemsOutCountsThemAndHListsThem() async throws {
        let home = try Home()
        let server = try Self.server()
        defer { server.stop() }
        try home.write("feeds.json", Self.feeds(server))
        let session = try home.session(["news"])
        // The list holds the two items to read, and the status bar counts the three hidden
        #expect(await session.waitFor { session.screen().contains("zeta rust notes") && session.screen().contains("3 hidden") }, "\(session.screen())")
        #expect(!session.screen().contains("zeta crypto crash") && !session.screen().contains("zeta spam post"))
        // H lists them, marked hidden
        try session.send("H")
        #expect(await session.waitFor { session.screen().contains("zeta crypto crash (example.com) hidden") && session.screen().contains("3 hidden shown") },
                "\(session.screen())")
        try session.send("H")
        #expect(await session.waitFor { !session.screen().contains("zeta crypto crash") }, "\(session.screen())")
        // S leaves out the results the rules of their feed hide, as the list does, and H there lists them
        try session.send("S")
        try session.send("-l", "zeta")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("zeta rust notes") && session.screen().contains("· 2 hidden ·") }, "\(session.screen())")
        // and says that news's field rule was not applied, which the reading log cannot, rather than seem to
        #expect(await session.waitFor { session.screen().contains("'.kind:job' not applied: search keeps no item's JSON") }, "\(session.screen())")
        #expect(session.screen().contains("zeta hiring now"), "\(session.screen())")
        #expect(!session.screen().contains("zeta crypto crash") && !session.screen().contains("zeta spam post"), "\(session.screen())")
        try session.send("H")
        #expect(await session.waitFor { session.screen().contains("zeta crypto crash") && session.screen().contains("2 hidden shown") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { session.screen().contains("3 hidden") && !session.screen().contains("search: zeta") }, "\(session.screen())")
        // n goes past page 2, hidden whole, to page 3
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("page three story") && session.screen().contains("page 3") }, "\(session.screen())")
        // The feed list counts unseen what is listed: three of the eight items on disk
        try session.send("F")
        // (the feed list's row, not the list's status bar "news · ... · 3 new")
        #expect(await session.waitFor { session.screen().split(separator: "\n").contains { $0.contains("news ") && $0.contains("3 new") && !$0.contains("·") } },
                "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }

    @Test func xHidesItemsLikeTheSelectedOneAndKeepsTheRuleInTheFeedsFile() async throws {
        // Given a feed of three authors at three sites, in a feeds file written by hand
        func item(_ id: String, _ title: String, _ author: String) -> String {
            #"{"id": "\#(id)", "title": "\#(title)", "url": "https://www.\#(author).example/\#(id)", "author": "\#(author)"}"#
        }
        let page = [item("a1", "alpha from ann", "ann"), item("a2", "beta from bob", "bob"), item("a3", "gamma from cy", "cy")]
        let server = try HTTPServer { request in .json(request.path.hasSuffix("/1") ? "[" + page.joined(separator: ", ") + "]" : "[]") }
        defer { server.stop() }
        let home = try Home()
        let base = server.baseURL.absoluteString
        let original = #"""
            {
              "hide": ["crypto"],
              "feeds": {
                "x": {"url": "\#(base)/x/{page}",
                      "fields": {"title": "title", "link": "url", "id": "id", "author": "author"}},
                "other": "hn"
              }
            }

            """#
        try home.write("feeds.json", original)
        let session = try home.session(["x"], width: 120)
        #expect(await session.waitFor { session.screen().contains("gamma from cy") }, "\(session.screen())")
        // When x is pressed on bob's item, and 2 picks his site
        try session.send("j")
        try session.send("x")
        #expect(await session.waitFor { session.screen().contains("hide items like this: 1 author:bob  2 site:bob.example  (Esc: none)") },
                "\(session.screen())")
        try session.send("2")
        // Then his item is hidden, and a toast says where the rule was kept
        #expect(await session.waitFor { !session.screen().contains("beta from bob") && session.screen().contains("hiding site:bob.example, saved in") },
                "\(session.screen())")
        #expect(session.screen().contains("gamma from cy") && session.screen().contains("1 hidden"), "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
        // And the feeds file holds it in x's hide, the rest as written
        let text = try String(contentsOf: home.config.appending(path: "riffle/feeds.json"), encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let feeds = try #require(json["feeds"] as? [String: Any])
        #expect((feeds["x"] as? [String: Any])?["hide"] as? [String] == ["site:bob.example"], "\(text)")
        #expect(json["hide"] as? [String] == ["crypto"] && feeds["other"] as? String == "hn", "\(text)")
        #expect(text.hasPrefix(String(original.prefix(while: { $0 != "}" }))) && text.hasSuffix("\"other\": \"hn\"\n  }\n}\n"), "\(text)")
        // And a dump with --hide leaves bob's item out too
        let dump = try await RiffleBinary.run(["dump", "x", "--hide", "--format", "tsv", "--fields", "title", "--cache-dir", home.cache.path],
                                              environment: ["XDG_CONFIG_HOME": home.config.path])
        #expect(Self.titles(dump) == ["alpha from ann", "gamma from cy"], "\(dump.stdout)\(dump.stderr)")

        // Given the same pages opened by a URL the feeds file has no entry for
        let bare = try home.session(["\(base)/y/{page}"], width: 120)
        #expect(await bare.waitFor { bare.screen().contains("gamma from cy") }, "\(bare.screen())")
        // When x is pressed and the author picked, one toast line says what is needed, and the file is as it was
        try bare.send("x")
        #expect(await bare.waitFor { bare.screen().contains("1 author:ann") }, "\(bare.screen())")
        try bare.send("1")
        #expect(await bare.waitFor { bare.screen().contains("hiding needs a feeds-file entry for this feed: riffle add NAME FEED, then riffle NAME") },
                "\(bare.screen())")
        #expect(bare.screen().contains("alpha from ann"))
        #expect(try String(contentsOf: home.config.appending(path: "riffle/feeds.json"), encoding: .utf8) == text)
        try await DailyEndToEndTests.quit(bare)
    }
}
