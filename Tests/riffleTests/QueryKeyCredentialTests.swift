import DemoServer
import Foundation
import RiffleKit
import Synchronization
import Testing
@testable import riffle

/// A key written in a feed URL's query (`?api_key=KEY`) is a credential: sent to that origin only, and
/// never written to the cache folder or printed, in any spelling.
@Suite("a key in a URL's query is a credential", .serialized)
struct QueryKeyCredentialTests {
    /// The key as the API gives it, and as it stands in the URL.
    static let key = "ab12CD34ef56+gh78/ij90"
    static let written = "ab12CD34ef56%2Bgh78%2Fij90"

    /// Every spelling of the key a file or a line could hold: raw, as written, percent-encoded whole,
    /// and its distinctive start.
    static let spellings: [String] = [
        key, written, written.lowercased(), "ab12CD34ef56",
        key.unicodeScalars.map { String(format: "%%%02X", $0.value) }.joined(),
    ]

    /// Three pages of items for the right key only (401 otherwise); each item echoes the request's
    /// target, key and all, as APIs do in their `next` links, so the redaction is exercised too.
    static func server(requests: Requests) throws -> HTTPServer {
        try HTTPServer { request in
            requests.list.withLock { $0.append(request.query("api_key") ?? "") }
            guard request.query("api_key") == key else { return .text("bad key", status: 401) }
            let number = Int(request.query("page") ?? "") ?? 0
            guard (1...3).contains(number) else { return .json("[]") }
            let items = (1...2).map { i in
                #"{"id": "\#(number)-\#(i)", "title": "item \#(number)-\#(i)", "self": "\#(request.target)", "key": "\#(key)"}"#
            }
            return .json("[" + items.joined(separator: ",") + "]")
        }
    }

    /// The `api_key` of each request the server saw.
    final class Requests: Sendable {
        let list = Mutex<[String]>([])
    }

    /// The spellings of the key found in `data`.
    static func leaks(in data: Data) -> [String] {
        spellings.filter { data.range(of: Data($0.utf8)) != nil }
    }

    @Test func theKeyReachesItsServerAndNoFileOrOutput() async throws {
        let requests = Requests()
        let server = try Self.server(requests: requests)
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        let config = try RiffleBinary.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: cache)
            try? FileManager.default.removeItem(at: config)
        }
        let logFile = cache.appending(path: "requests.log").path
        let url = "http://127.0.0.1:\(server.port)/items?api_key=\(Self.written)&page={page}"
        let shown = "http://127.0.0.1:\(server.port)/items?api_key=***&page={page}"
        let environment = ["LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_CONFIG_HOME": config.path, "RIFFLE_LOG": logFile]
        var outputs: [String: String] = [:]

        // riffle dump, every page, as JSON lines: the items' echoes come out with the key taken out.
        let dump = try await RiffleBinary.run(["dump", url, "--all", "--cache-dir", cache.path, "--timings"], environment: environment)
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.split(separator: "\n").count == 6, "every item of the three pages")
        #expect(dump.stdout.contains(#""self":"/items?api_key=%2A%2A%2A&page=1""#), "\(dump.stdout)")
        outputs["dump"] = dump.stdout + dump.stderr

        // The browser: page 1, then 2, then the feed list, which shows it as opened before.
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, "--max-age", "0", url],
                                      width: 120, height: 24, environment: environment, socketPrefix: "querykey")
        #expect(await session.waitFor { session.screen().contains("item 1-1") }, "\(session.screen())")
        outputs["browser"] = session.screen()
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("item 2-1") }, "\(session.screen())")
        try session.send("F")
        let listed = "http://127.0.0.1:\(server.port)/items?api_key=**"  // cut to its column
        #expect(await session.waitFor { session.screen().contains(listed) }, "the feed list shows \(listed):\n\(session.screen())")
        outputs["feed list"] = session.unwrappedScreen()
        try session.send("q")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")

        // What riffle says of its cache.
        let info = try await RiffleBinary.run(["cache", "info", "--cache-dir", cache.path], environment: environment)
        #expect(info.stdout.contains("api_key=***"), "\(info.stdout)")
        outputs["cache info"] = info.stdout + info.stderr
        let json = try await RiffleBinary.run(["cache", "info", "--json", "--cache-dir", cache.path], environment: environment)
        outputs["cache info --json"] = json.stdout + json.stderr

        // The URL as riffle shows it cannot fetch anything: it says so, rather than asking without it.
        let sentBefore = requests.list.withLock { $0.count }
        let copied = try await RiffleBinary.run(["dump", shown, "--cache-dir", cache.path, "--max-age", "0"], environment: environment)
        #expect(copied.status == 2)
        #expect(copied.stderr.contains("the api_key of \(shown) is not kept"), "\(copied.stderr)")
        #expect(requests.list.withLock { $0.count } == sentBefore, "nothing was asked for without the key")

        // Every request carried the key; none went without it.
        #expect(!requests.list.withLock { $0 }.isEmpty)
        #expect(requests.list.withLock { $0 }.allSatisfy { $0 == Self.key }, "\(requests.list.withLock { $0 })")
        let files = UserInfoCredentialTests.files(under: cache)
        #expect(files.contains { $0.path.hasSuffix("index.sqlite") } && files.contains { $0.path.hasSuffix("reading.sqlite") })
        #expect(files.contains { $0.path == logFile })
        for (path, data) in files {
            #expect(Self.leaks(in: data).isEmpty, "\(path) holds \(Self.leaks(in: data))")
        }
        for (name, text) in outputs {
            #expect(Self.leaks(in: Data(text.utf8)).isEmpty, "\(name) printed \(Self.leaks(in: Data(text.utf8))):\n\(text)")
        }
    }

    @Test func riffleAddRefusesAURLWithAKey() async throws {
        let config = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try await RiffleBinary.run(["add", "news", "https://newsapi.example/v2/everything?apiKey=\(Self.written)&page={page}"],
                                                environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("a URL with a key in it (apiKey) is not written to"), "\(result.stderr)")
        #expect(result.stderr.contains(#"add https://newsapi.example/v2/everything?page={page} with "query": {"apiKey": "${NEWSAPI_APIKEY}"}"#),
                "\(result.stderr)")
        #expect(!result.stderr.contains(Self.key) && !result.stderr.contains(Self.written))
        #expect(!FileManager.default.fileExists(atPath: config.appending(path: "riffle/feeds.json").path))
    }
}
