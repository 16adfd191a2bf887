import DemoServer
import Foundation
import Testing

@Suite("riffle dump: exit status, cache modes and timings")
struct DumpExitTests {
    @Test func aFailingPageExitsOneAndTheOthersStillPrint() async throws {
        let fixture = try DumpFixture(failPage: 2)
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--pages", "1-3"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("riffle: page 2: HTTP 500") == true, "\(result.stderr)")
        let ids = try DumpFixture.objects(result.stdout).map { DumpFixture.text($0["id"]) }
        #expect(ids == fixture.ids(pages: 1...1) + fixture.ids(pages: 3...3))
    }

    /// A host that cannot be reached fails every page alike: the dump says so once and stops, where
    /// on a host that drops packets each page would wait out the connect timeout.
    @Test func aHostThatCannotBeReachedEndsTheDumpAtItsFirstFailure() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = try RiffleBinary.refusingTemplate()
        let result = try await RiffleBinary.run(["dump", template, "--cache-dir", cache.path, "--pages", "1-12", "--concurrency", "4"])
        #expect(result.status == 1)
        let host = "127.0.0.1:\(RiffleBinary.refusingPort ?? 0)"
        #expect(result.stderr.split(separator: "\n") == [
            "riffle: page 1: could not connect to \(host) (connection refused)",
            "riffle: warning: pages 2-12 were not asked for: could not connect to \(host) (connection refused)",
        ], "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A server that refuses riffle rather than a page (a quota used up, a credential it will not take)
    /// refuses every page alike: the dump says so once and stops, where it spent a request on each page
    /// of the range and printed the same refusal for each.
    @Test(arguments: [(429, "Too Many Requests"), (403, "Forbidden"), (401, "Unauthorized")])
    func aServerRefusingTheClientEndsTheDumpAtItsFirstRefusal(status: Int, reason: String) async throws {
        let server = try HTTPServer { request in
            request.query("page") == "1"
                ? .json(#"[{"id": "a", "title": "first"}]"#)
                : .json(#"{"message": "API rate limit exceeded"}"#, status: status, headers: [("Retry-After", "3600")])
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try await RiffleBinary.run(["dump", server.baseURL.absoluteString + "/items?page={page}", "--cache-dir", cache.path,
                                                 "--pages", "1-12", "--concurrency", "1", "--format", "tsv", "--fields", "id"])
        #expect(result.status == 1)
        #expect(result.stdout == "a\n")
        // A 429's Retry-After is told too: how long the quota lasts is what a person needs of it.
        let wait = status == 429 ? "try again in 1h; " : ""
        let refusal = "HTTP \(status) \(reason): \(wait){\"message\": \"API rate limit exceeded\"}"
        #expect(result.stderr.split(separator: "\n") == [
            "riffle: page 2: \(refusal)",
            "riffle: warning: pages 3-12 were not asked for: \(refusal)",
        ], "\(result.stderr)")
        #expect(server.requestCount == 2)
    }

    /// A feed whose pages link one to the next (`Link: rel="next"`, as GitHub's): past a page that
    /// failed, the next cannot be found. The dump says so in one line and stops, where it asked for the
    /// failed page again for each page after it and printed each as failing with its error.
    @Test func aFailedPageEndsADumpOfPagesThatLinkOneToTheNext() async throws {
        let server = try HTTPServer { request in
            switch request.path {
            case "/p/1": .json(#"[{"id": "a", "title": "first"}]"#, headers: [("Link", #"</p/2>; rel="next""#)])
            case "/p/2": .text("down", status: 500)
            default: .json(#"[{"id": "z", "title": "never"}]"#, headers: [("Link", #"</p/9>; rel="next""#)])
            }
        }
        defer { server.stop() }
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appending(path: "riffle"), withIntermediateDirectories: true)
        let feeds = #"{"feeds": {"chain": {"url": "\#(server.baseURL.absoluteString)/p/1", "pagination": {"style": "link"}}}}"#
        try Data(feeds.utf8).write(to: home.appending(path: "riffle/feeds.json"))
        let result = try await RiffleBinary.run(["dump", "chain", "--pages", "1-5", "--cache-dir", home.appending(path: "cache").path,
                                                 "--format", "tsv", "--fields", "id"], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 1)
        #expect(result.stdout == "a\n")
        #expect(result.stderr.split(separator: "\n") == [
            "riffle: page 2: HTTP 500 Internal Server Error: down",
            "riffle: warning: pages 3-5 were not asked for: each page's link is in the page before, and page 2 failed",
        ], "\(result.stderr)")
    }

    /// An answer that is not JSON says what it holds where reading stopped: a web page (a sign-in
    /// form, a proxy's notice, the site instead of its API) is seen to be one, on one line.
    @Test func anAnswerThatIsNotJSONSaysWhatItHolds() async throws {
        let server = try HTTPServer { request in
            switch request.path {
            case "/page/1": .text("<!DOCTYPE html><html><head><title>Sign in</title></head><body>\n<form>\n</body></html>")
            case "/broken/1": .json(#"[{"id": 1, "title": "a"} {"id": 2}]"#)
            default: .text("not found", status: 404)
            }
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let page = try await RiffleBinary.run(["dump", server.baseURL.absoluteString + "/page/{page}", "--cache-dir", cache.path])
        #expect(page.status == 1)
        #expect(page.stderr == "riffle: page 1: invalid JSON at byte 0: unexpected character near \"<!DOCTYPE html><html><head><title>Sign i…\"\n",
                "\(page.stderr)")
        let broken = try await RiffleBinary.run(["dump", server.baseURL.absoluteString + "/broken/{page}", "--cache-dir", cache.path])
        #expect(broken.status == 1)
        #expect(broken.stderr == #"riffle: page 1: invalid JSON at byte 25: expected ',' or ']' near "{"id": 2}]""# + "\n", "\(broken.stderr)")
    }

    @Test(arguments: [
        ["--pages", "3-1"], ["--pages", "0"], ["--pages", "x"], ["--format", "xml"], ["--refresh", "--offline"],
        ["--concurrency", "0"], ["--fields", ""], ["--theme", "dark"],
    ])
    func usageErrorsExitTwo(extra: [String]) async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(extra)
        #expect(result.status == 2, "\(extra): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(fixture.server.requestCount == 0)
    }

    /// A field named twice would be a key written twice in each JSON object (`{"id":"0","id":"0"}`):
    /// `riffle dump` and `riffle search` refuse it in one line naming the field, before any request.
    @Test func aFieldNamedTwiceIsAUsageErrorNamingIt() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let dump = try await fixture.dump(["--fields", "title, id,id"])
        #expect(dump.status == 2 && dump.stdout.isEmpty)
        #expect(dump.stderr.split(separator: "\n").count == 1 && dump.stderr.contains("option --fields names 'id' twice"), "\(dump.stderr)")
        #expect(fixture.server.requestCount == 0)
        let search = try await RiffleBinary.run(["search", "word", "--cache-dir", fixture.cache.path, "--fields", "url,url"])
        #expect(search.status == 2 && search.stdout.isEmpty)
        #expect(search.stderr.contains("option --fields names 'url' twice"), "\(search.stderr)")
    }

    @Test func aFeedIsRequired() async throws {
        let result = try await RiffleBinary.run(["dump"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("needs a feed"))
    }

    @Test func offlineWithoutCachedPagesFailsWithoutAsking() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--offline", "--pages", "1-2"])
        #expect(result.status == 1)
        #expect(result.stderr == "riffle: page 1: not cached\nriffle: page 2: not cached\n")
        #expect(result.stdout.isEmpty)
        #expect(fixture.server.requestCount == 0)
    }

    @Test func offlineWithCachedPagesPrintsThemWithoutAsking() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let online = try await fixture.dump(["--pages", "1-2"])
        let requests = fixture.server.requestCount
        fixture.server.stop()
        let offline = try await fixture.dump(["--offline", "--pages", "1-2"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == online.stdout)
        #expect(fixture.server.requestCount == requests)
    }

    @Test func timingsNameEachPageSourceAndSummarise() async throws {
        let fixture = try DumpFixture(failPage: 3)
        defer { fixture.cleanUp() }
        _ = try await fixture.dump(["--pages", "1"])
        let result = try await fixture.dump(["--pages", "1-3", "--timings"])
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        let objects = try DumpFixture.objects(lines.joined(separator: "\n"))
        #expect(objects.count == 4)
        #expect(objects[0]["page"] as? Int == 1 && objects[0]["source"] as? String == "cache" && objects[0]["status"] as? Int == 200)
        #expect(objects[1]["source"] as? String == "network" && objects[1]["items"] as? Int == fixture.ids(pages: 2...2).count)
        #expect((objects[1]["bytes"] as? Int ?? 0) > 0 && objects[1]["ms"] is Double)
        #expect(objects[2]["page"] as? Int == 3 && (objects[2]["error"] as? String)?.contains("500") == true)
        #expect(objects[3]["pages"] as? Int == 3 && objects[3]["errors"] as? Int == 1)
        #expect(objects[3]["init_ms"] is Double && objects[3]["total_ms"] is Double)
    }

    @Test func refreshAndMaxAgeFetchAgainAndCommonOptionsGoBeforeTheCommand() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump([])
        _ = try await fixture.dump([])
        #expect(fixture.server.requestCount(page: 1) == 1)
        _ = try await fixture.dump(["--refresh"])
        #expect(fixture.server.requestCount(page: 1) == 2)
        let early = try await RiffleBinary.run(["--max-age", "0", "--cache-dir", fixture.cache.path, "dump", fixture.template])
        #expect(early.status == 0, "\(early.stderr)")
        #expect(fixture.server.requestCount(page: 1) == 3)
        _ = try await fixture.dump(["--max-age", "3600"])
        #expect(fixture.server.requestCount(page: 1) == 3)
    }
}
