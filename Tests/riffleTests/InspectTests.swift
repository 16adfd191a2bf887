import DemoServer
import Foundation
import Testing

/// `riffle inspect FEED` against saved responses served on 127.0.0.1: what it says of each part, the
/// entry it pins (which reads the feed as the bare URL does), its one-line errors, and its output in a
/// terminal.
@Suite("riffle inspect")
struct InspectTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../RiffleKitTests/Fixtures").standardizedFileURL

    /// A server answering `/NAME?page=N` with fixture NAME (a path under Fixtures), and a cache.
    struct Served {
        let server: HTTPServer
        let cache: URL

        init(body: (@Sendable (String) -> Data?)? = nil) throws {
            server = try HTTPServer { request in
                let name = String(request.path.dropFirst())
                guard let data = body?(name) ?? (try? Data(contentsOf: InspectTests.fixtures.appending(path: name))) else {
                    return .text("not found", status: 404)
                }
                return .json(data)
            }
            cache = try RiffleBinary.temporaryDirectory()
        }

        func template(_ name: String) -> String { server.baseURL.absoluteString + "/" + name + "?page={page}" }

        func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Spawn.Result {
            try await RiffleBinary.run(arguments + ["--cache-dir", cache.path], environment: environment)
        }

        func cleanUp() {
            server.stop()
            try? FileManager.default.removeItem(at: cache)
        }
    }

    @Test func itSaysWhereEachPartComesFromAndWhy() async throws {
        let served = try Served()
        defer { served.cleanUp() }
        let result = try await served.run(["inspect", served.template("github-issues.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("Items: the top-level array, 4 elements"), "\(out)")
        #expect(out.contains("  title     `title` (") && out.contains("text of 8–12 words; different on 4/4 items"), "\(out)")
        // The page a person opens, not the API's own `url`.
        #expect(out.contains("  link      `html_url` ("), "\(out)")
        #expect(out.contains("  author    `user.login` ("), "\(out)")
        #expect(out.contains("  time      `created_at` ("), "\(out)")
        #expect(out.contains("Pages: page numbers from 1 ({page} in the URL)"), "\(out)")
        #expect(out.contains("  next: " + served.template("github-issues.json").replacingOccurrences(of: "{page}", with: "2")), "\(out)")
    }

    @Test func thePinnedEntryReadsTheFeedAsTheBareURLDoes() async throws {
        let served = try Served()
        defer { served.cleanUp() }
        let url = served.template("reddit-listing.json")
        let inspected = try await served.run(["inspect", url])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let marker = "feeds.json, to pin what was found (edit the name):\n"
        let json = try #require(inspected.stdout.range(of: marker).map { String(inspected.stdout[$0.upperBound...]) })
        let pin = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let feeds = try #require(pin["feeds"] as? [String: Any])
        let name = try #require(feeds.keys.first)
        let entry = try #require(feeds[name] as? [String: Any])
        #expect(entry["items"] as? String == "data.children")
        #expect((entry["fields"] as? [String: String])?["link"] == "url")

        let config = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config.appending(path: "riffle"), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: config.appending(path: "riffle/feeds.json"))
        let environment = ["XDG_CONFIG_HOME": config.path]
        let fields = "title,link,author,time,score,comments,id"
        let bare = try await served.run(["dump", url, "--fields", fields], environment: environment)
        let pinned = try await served.run(["dump", name, "--fields", fields], environment: environment)
        #expect(bare.status == 0 && pinned.status == 0, "\(bare.stderr) \(pinned.stderr)")
        #expect(pinned.stdout == bare.stdout && !bare.stdout.isEmpty)
        let again = try await served.run(["inspect", name], environment: environment)
        #expect(again.stdout.contains("  title     `title`: the feed's `fields`"), "\(again.stdout)")
        #expect(again.stdout.contains("Items: `data.children` (the feed's `items`)"), "\(again.stdout)")
    }

    /// A key written in the URL is not in the pinned entry: the entry names it as a `query` reference
    /// to the environment, says which variable, and reads the feed as the URL with its key did.
    @Test func thePinnedEntryOfAURLWithAKeyNamesTheKeyAndDoesNotHoldIt() async throws {
        let served = try Served()
        defer { served.cleanUp() }
        let key = "0123456789abcdef0123"
        let url = served.template("github-issues.json") + "&apiKey=" + key
        let inspected = try await served.run(["inspect", url])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(!inspected.stdout.contains(key), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("set it in the environment before opening the feed (export APIKEY=YOUR_KEY)"), "\(inspected.stdout)")
        let marker = "feeds.json, to pin what was found (edit the name):\n"
        let json = try #require(inspected.stdout.range(of: marker).map { String(inspected.stdout[$0.upperBound...]) })
        #expect(!json.contains("***"), "the entry has no hidden key in it:\n\(json)")
        let pin = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let feeds = try #require(pin["feeds"] as? [String: Any])
        let name = try #require(feeds.keys.first)
        let entry = try #require(feeds[name] as? [String: Any])
        #expect(entry["url"] as? String == served.template("github-issues.json"))
        #expect(entry["query"] as? [String: String] == ["apiKey": "${APIKEY}"])

        let config = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config.appending(path: "riffle"), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: config.appending(path: "riffle/feeds.json"))
        let pinned = try await served.run(["dump", name, "--fields", "title", "--max-age", "0"],
                                          environment: ["XDG_CONFIG_HOME": config.path, "APIKEY": key])
        let bare = try await served.run(["dump", url, "--fields", "title"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(pinned.status == 0 && bare.status == 0, "\(pinned.stderr) \(bare.stderr)")
        #expect(pinned.stdout == bare.stdout && !bare.stdout.isEmpty)
        #expect(served.server.requests.last?.query("apiKey") == key, "the pinned feed sends the key from the environment")
        // The entry as riffle shows it elsewhere (`apiKey=***` in the url) is refused, not sent with `***`.
        let copied = #"{"feeds": {"copied": {"url": "\#(served.template("github-issues.json"))&apiKey=***"}}}"#
        try Data(copied.utf8).write(to: config.appending(path: "riffle/feeds.json"))
        let sent = served.server.requests.count
        let refused = try await served.run(["dump", "copied", "--max-age", "0"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(refused.status == 2 && refused.stderr.contains("feed 'copied': its url says apiKey=***"), "\(refused.stderr)")
        #expect(served.server.requests.count == sent)
    }

    @Test func aKeyFromTheEnvironmentReadsAsTypedInTheReportAndInCacheInfo() async throws {
        // Given a feeds.json entry whose key is `${RIFFLE_INSPECT_KEY}`, a key with bytes a URL encodes.
        let served = try Served()
        defer { served.cleanUp() }
        let key = "k/ey+0123456789abc"
        let config = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config.appending(path: "riffle"), withIntermediateDirectories: true)
        let entry = #"{"feeds": {"keyed": {"url": "\#(served.template("github-issues.json"))", "query": {"api_key": "${RIFFLE_INSPECT_KEY}"}}}}"#
        try Data(entry.utf8).write(to: config.appending(path: "riffle/feeds.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "RIFFLE_INSPECT_KEY": key]

        // When it is inspected, then the cache is listed.
        let inspected = try await served.run(["inspect", "keyed"], environment: environment)
        let info = try await served.run(["cache", "info"], environment: environment)

        // Then both show the page URL with the reference as typed: not the key, not an encoding of the name.
        #expect(served.server.requests.first?.query("api_key") == key)
        #expect(inspected.status == 0 && info.status == 0, "\(inspected.stderr) \(info.stderr)")
        for shown in [inspected.stdout, info.stdout] {
            #expect(shown.contains("page=1&api_key=${RIFFLE_INSPECT_KEY}"), "\(shown)")
            #expect(!shown.contains("%7B") && !shown.contains(key) && !shown.contains("k%2Fey"), "\(shown)")
        }
    }

    @Test func charactersThatAreNotTextAreCountedAndTheItemsStillRead() async throws {
        // Given a page with a lone surrogate (an emoji cut in two) in one title and a byte that is not UTF-8 in another
        var body = Data(#"[{"id": 1, "title": "half an emoji \ud83d here", "url": "https://example.com/1"}, "#.utf8)
        body += Data(#"{"id": 2, "title": "a broken "#.utf8) + Data([0xFF]) + Data(#" byte", "url": "https://example.com/2"}, "#.utf8)
        body += Data(#"{"id": 3, "title": "a clean title", "url": "https://example.com/3"}]"#.utf8)
        let page = body
        let served = try Served { name in name == "broken.json" ? page : nil }
        defer { served.cleanUp() }
        // When it is inspected
        let result = try await served.run(["inspect", served.template("broken.json")])
        // Then all three items are read, and the two replaced characters are counted
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("page 1, 3 items"), "\(result.stdout)")
        #expect(result.stdout.contains("2 characters that were not text (bytes that are not UTF-8, a lone surrogate) read as U+FFFD"),
                "\(result.stdout)")
        // And a clean page says nothing of it
        let clean = try await served.run(["inspect", served.template("github-issues.json")])
        #expect(!clean.stdout.contains("U+FFFD"), "\(clean.stdout)")
    }

    @Test func oneRecordIsRefusedInOneLine() async throws {
        let served = try Served()
        defer { served.cleanUp() }
        let result = try await served.run(["inspect", served.template("corpus/tune/omdb-title.json")])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "riffle: page 1: the response is one record of 24 fields, not a list of items (Ratings holds 3 of its details)\n",
                "\(result.stderr)")
    }

    @Test func offlineWithNothingStoredSaysSo() async throws {
        let served = try Served()
        defer { served.cleanUp() }
        let result = try await served.run(["inspect", served.template("github-issues.json"), "--offline"])
        #expect(result.status == 1)
        #expect(result.stderr == "riffle: page 1: not cached\n", "\(result.stderr)")
        #expect(served.server.requestCount == 0)
        // Once stored, offline reads it.
        #expect(try await served.run(["inspect", served.template("github-issues.json")]).status == 0)
        let offline = try await served.run(["inspect", served.template("github-issues.json"), "--offline"])
        #expect(offline.status == 0 && offline.stdout.contains("from the cache"), "\(offline.stdout)")
    }

    @Test func keysFromTheServerCannotSteerTheTerminal() async throws {
        let hostile = #"[{"\u001b]52;c;aGFja2Vk\u0007name": "one two three", "title\u009b2J": "a \u001b[2J b", "id": 1},"#
            + #"{"\u001b]52;c;aGFja2Vk\u0007name": "four five six", "title\u009b2J": "c \u001b[2J d", "id": 2}]"#
        let served = try Served { _ in Data(hostile.utf8) }
        defer { served.cleanUp() }
        let result = try await served.run(["inspect", served.template("hostile.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let controls = result.stdout.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("␛]52;c;aGFja2Vk␇name"), "\(result.stdout)")
    }

    @Test func itReadsInATerminal() async throws {
        let served = try Served()
        defer { served.cleanUp() }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "inspect", served.template("hn-algolia.json"), "--first-page", "0",
                                                "--cache-dir", served.cache.path],
                                      width: 120, height: 70, environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        #expect(await session.waitFor { session.exitStatus() != nil }, "\(session.screen())")
        #expect(session.exitStatus() == 0)
        let screen = session.screen()
        #expect(screen.contains("Items: `hits`, 4 elements"), "\(screen)")
        #expect(screen.contains("  title     `title` ("), "\(screen)")
        #expect(screen.contains("  author    `author` ("), "\(screen)")
        #expect(screen.contains("Pages: page numbers from 0 ({page} in the URL)"), "\(screen)")
        #expect(screen.contains("\"items\": \"hits\","), "\(screen)")
        // What Algolia says beside its hits, as `Pagination` reads it.
        #expect(screen.contains("nbPages: 50") && screen.contains("  in all: 50 pages"), "\(screen)")
    }
}
