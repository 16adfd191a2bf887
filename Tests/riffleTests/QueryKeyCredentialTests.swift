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

    @Test func theKeyReachesItsServerAndNoFileOrOutput() async throws {
        let requests = Requests()
        let server = try Self.server(requests: requests)
        defer { server.stop() }
        var run = try CredentialRun()
        defer { run.cleanUp() }
        let url = "http://127.0.0.1:\(server.port)/items?api_key=\(Self.written)&page={page}"
        let shown = "http://127.0.0.1:\(server.port)/items?api_key=***&page={page}"

        try await run.run(url, listed: "http://127.0.0.1:\(server.port)/items?api_key=**", socketPrefix: "querykey")
        // Every page, as JSON lines: the items' echoes come out with the key taken out.
        #expect(run.dump.status == 0, "\(run.dump.stderr)")
        #expect(run.dump.stdout.split(separator: "\n").count == 6, "every item of the three pages")
        #expect(run.dump.stdout.contains(#""self":"/items?api_key=***&page=1""#), "\(run.dump.stdout)")
        #expect(run.info.stdout.contains("api_key=***"), "\(run.info.stdout)")

        // The URL as riffle shows it cannot fetch anything: it says so, rather than asking without it.
        let sentBefore = requests.list.withLock { $0.count }
        let copied = try await RiffleBinary.run(["dump", shown, "--cache-dir", run.cache.path, "--max-age", "0"], environment: run.environment)
        #expect(copied.status == 2)
        #expect(copied.stderr.contains("the api_key of \(shown) is not kept"), "\(copied.stderr)")
        #expect(requests.list.withLock { $0.count } == sentBefore, "nothing was asked for without the key")

        // Every request carried the key; none went without it, and nothing riffle wrote or printed holds it.
        #expect(!requests.list.withLock { $0 }.isEmpty)
        #expect(requests.list.withLock { $0 }.allSatisfy { $0 == Self.key }, "\(requests.list.withLock { $0 })")
        #expect(run.leaks(of: Self.spellings).isEmpty, "\(run.leaks(of: Self.spellings).joined(separator: "\n"))")
    }

    /// A short key under a parameter named for one (`api_key=q7z`, a demo or test key) is a key all the
    /// same: shown as `api_key=***`, sent to its server, and written to no file, line or listing,
    /// though a server echoes it in every item.
    @Test func aShortKeyIsHiddenByItsNameAndNeverWritten() async throws {
        let short = "q7z"
        let requests = Requests()
        let server = try HTTPServer { request in
            requests.list.withLock { $0.append(request.query("api_key") ?? "") }
            guard request.query("api_key") == short else { return .text("bad key", status: 401) }
            let number = Int(request.query("page") ?? "") ?? 0
            guard (1...3).contains(number) else { return .json("[]") }
            let items = (1...2).map { i in #"{"id": "\#(number)-\#(i)", "title": "item \#(number)-\#(i)", "self": "\#(request.target)"}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        }
        defer { server.stop() }
        var run = try CredentialRun()
        defer { run.cleanUp() }

        try await run.run("http://127.0.0.1:\(server.port)/items?api_key=\(short)&page={page}",
                          listed: "http://127.0.0.1:\(server.port)/items?api_key=**", socketPrefix: "shortkey")
        #expect(run.dump.status == 0, "\(run.dump.stderr)")
        #expect(run.dump.stdout.contains(#""self":"/items?api_key=***&page=1""#), "\(run.dump.stdout)")
        #expect(run.info.stdout.contains("/items?api_key=***&page="), "\(run.info.stdout)")
        #expect(!requests.list.withLock { $0 }.isEmpty && requests.list.withLock { $0 }.allSatisfy { $0 == short })
        #expect(run.leaks(of: [short]).isEmpty, "\(run.leaks(of: [short]).joined(separator: "\n"))")
    }

    /// Where riffle shows a URL a server echoed with the key in it (an item's link, an error page), the
    /// key reads `api_key=***`, as in riffle's listings, never `%2A%2A%2A`.
    @Test func anEchoedKeyReadsAsTheMarkInLinksAndErrors() async throws {
        let server = try HTTPServer { request in
            guard request.query("api_key") == Self.key else { return .text("bad key", status: 401) }
            guard request.path == "/items" else { return .text("no such page: \(request.target)", status: 404) }
            let query = request.target.split(separator: "?", maxSplits: 1).last ?? ""
            return .json(#"[{"id": "1", "title": "one item", "link": "/story/1?\#(query)"}]"#)
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let listed = try await RiffleBinary.run(["dump", "http://127.0.0.1:\(server.port)/items?api_key=\(Self.written)&page={page}",
                                                 "--pages", "1", "--fields", "title,link", "--format", "tsv", "--cache-dir", cache.path])
        #expect(listed.stdout == "one item\thttp://127.0.0.1:\(server.port)/story/1?api_key=***&page=1\n", "\(listed.stdout)\(listed.stderr)")
        let missing = try await RiffleBinary.run(["dump", "http://127.0.0.1:\(server.port)/gone?api_key=\(Self.written)&page={page}",
                                                  "--pages", "1", "--cache-dir", cache.path])
        #expect(missing.stderr.contains("no such page: /gone?api_key=***&page=1"), "\(missing.stderr)")
        for output in [listed.stdout, listed.stderr, missing.stdout, missing.stderr] {
            #expect(!output.contains("%2A") && Self.spellings.allSatisfy { !output.contains($0) }, "\(output)")
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
