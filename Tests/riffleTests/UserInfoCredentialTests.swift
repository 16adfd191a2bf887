import DemoServer
import Foundation
import RiffleKit
import Synchronization
import Testing
@testable import riffle

/// A password in a feed's URL (`https://user:PASSWORD@host/...`) is a credential: sent to that origin
/// only, and never written to the cache folder or printed, in any spelling.
@Suite("a URL's user-info is a credential", .serialized)
struct UserInfoCredentialTests {
    static let user = "reader"
    static let password = "S3cr3t-p@ss w/rd"
    /// The password as it stands in the URL.
    static let written = "S3cr3t-p%40ss%20w%2Frd"
    static let basic = Data("\(user):\(password)".utf8).base64EncodedString()

    /// Every spelling of the password a file or a line could hold: raw, as written, percent-encoded
    /// whole in either case, its distinctive start, and the Basic token.
    static let spellings: [String] = [
        password, written, written.lowercased(), "S3cr3t",
        password.unicodeScalars.map { String(format: "%%%02X", $0.value) }.joined(), basic,
    ]

    /// Three pages of items for the right `Authorization` only (401 otherwise); each echoes the header
    /// and the password back, as a careless API does, so the redaction is exercised too.
    static func server(requests: Requests) throws -> HTTPServer {
        try HTTPServer { request in
            let authorization = request.header("Authorization") ?? ""
            requests.list.withLock { $0.append(authorization) }
            guard authorization == "Basic \(basic)" else { return .text("who are you?", status: 401) }
            let number = Int(request.path.split(separator: "/").last ?? "") ?? 0
            guard (1...3).contains(number) else { return .json("[]") }
            let items = (1...2).map { i in
                #"{"id": "\#(number)-\#(i)", "title": "item \#(number)-\#(i)", "echo": "\#(authorization)", "pw": "\#(password)"}"#
            }
            return .json("[" + items.joined(separator: ",") + "]")
        }
    }

    /// The `Authorization` of each request the server saw.
    final class Requests: Sendable {
        let list = Mutex<[String]>([])
    }

    /// Every file under `folder`, with its bytes.
    static func files(under folder: URL) -> [(path: String, data: Data)] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { item in
            guard let file = item as? URL, (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let data = try? Data(contentsOf: file) else { return nil }
            return (file.path, data)
        }
    }

    /// The spellings of the password found in `data`.
    static func leaks(in data: Data) -> [String] {
        spellings.filter { data.range(of: Data($0.utf8)) != nil }
    }

    @Test func thePasswordReachesItsServerAndNoFileOrOutput() async throws {
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
        let url = "http://\(Self.user):\(Self.written)@127.0.0.1:\(server.port)/items/{page}"
        let shown = "http://\(Self.user):***@127.0.0.1:\(server.port)/items/{page}"
        let environment = ["LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_CONFIG_HOME": config.path, "RIFFLE_LOG": logFile]
        var outputs: [String: String] = [:]

        // riffle dump, every page.
        let dump = try await RiffleBinary.run(["dump", url, "--all", "--cache-dir", cache.path, "--timings"], environment: environment)
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.split(separator: "\n").count == 6, "every item of the three pages")
        outputs["dump"] = dump.stdout + dump.stderr

        // The browser: page 1, then 2, then the feed list, which shows it as opened before.
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, "--max-age", "0", url],
                                      width: 120, height: 24, environment: environment, socketPrefix: "userinfo")
        #expect(await session.waitFor { session.screen().contains("item 1-1") }, "\(session.screen())")
        outputs["browser"] = session.screen()
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("item 2-1") }, "\(session.screen())")
        try session.send("F")
        let listed = "http://\(Self.user):***@127.0.0.1:\(server.port)/items"  // cut to its column
        #expect(await session.waitFor { session.screen().contains(listed) }, "the feed list shows \(listed):\n\(session.screen())")
        outputs["feed list"] = session.unwrappedScreen()
        try session.send("q")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")

        // What riffle says of its cache.
        let info = try await RiffleBinary.run(["cache", "info", "--cache-dir", cache.path], environment: environment)
        #expect(info.stdout.contains("http://\(Self.user):***@127.0.0.1:\(server.port)/items/"), "\(info.stdout)")
        outputs["cache info"] = info.stdout + info.stderr
        let json = try await RiffleBinary.run(["cache", "info", "--json", "--cache-dir", cache.path], environment: environment)
        outputs["cache info --json"] = json.stdout + json.stderr

        // The URL as riffle shows it cannot fetch anything: it says so, rather than asking without it.
        let copied = try await RiffleBinary.run(["dump", shown, "--cache-dir", cache.path], environment: environment)
        #expect(copied.status == 2)
        #expect(copied.stderr.contains("the password of \(shown) is not kept"), "\(copied.stderr)")

        // Every request carried the credential (none went without it, none elsewhere).
        #expect(requests.list.withLock { $0 }.allSatisfy { $0 == "Basic \(Self.basic)" }, "\(requests.list.withLock { $0 })")
        #expect(!requests.list.withLock { $0 }.isEmpty)
        let files = Self.files(under: cache)
        #expect(files.contains { $0.path.hasSuffix("index.sqlite") } && files.contains { $0.path.hasSuffix("reading.sqlite") })
        #expect(files.contains { $0.path == logFile })
        for (path, data) in files {
            #expect(Self.leaks(in: data).isEmpty, "\(path) holds \(Self.leaks(in: data))")
        }
        for (name, text) in outputs {
            #expect(Self.leaks(in: Data(text.utf8)).isEmpty, "\(name) printed \(Self.leaks(in: Data(text.utf8))):\n\(text)")
        }
    }

    @Test func theUserInfoIsHiddenInTheTemplateAndSentAsBasicToTheOriginOnly() throws {
        let feed = try Feed(template: "https://\(Self.user):\(Self.written)@api.example.com/items?page={page}")
        #expect(feed.template == "https://reader:***@api.example.com/items?page={page}")
        #expect(feed.userInfo?.user == Self.user && feed.userInfo?.password == Self.password)
        #expect(feed.name == "api.example.com")
        let token = try Feed(template: "https://ghp_token123@api.example.com/items?page={page}")
        #expect(token.template == "https://***@api.example.com/items?page={page}")
        #expect(Feed.hidingUserInfo("https://a:b@h.test/x@y?q=@") == "https://a:***@h.test/x@y?q=@")
        #expect(Feed.hidingUserInfo("https://h.test/x@y") == "https://h.test/x@y")
        // A wrong template's error quotes it hidden.
        #expect(throws: Feed.TemplateError.missingPlaceholder("https://reader:***@api.example.com/items")) {
            try Feed(template: "https://\(Self.user):\(Self.written)@api.example.com/items")
        }
    }
}
