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

    @Test func thePasswordReachesItsServerAndNoFileOrOutput() async throws {
        let requests = Requests()
        let server = try Self.server(requests: requests)
        defer { server.stop() }
        var run = try CredentialRun()
        defer { run.cleanUp() }
        let url = "http://\(Self.user):\(Self.written)@127.0.0.1:\(server.port)/items/{page}"
        let shown = "http://\(Self.user):***@127.0.0.1:\(server.port)/items/{page}"

        try await run.run(url, listed: "http://\(Self.user):***@127.0.0.1:\(server.port)/items", socketPrefix: "userinfo")
        #expect(run.dump.status == 0, "\(run.dump.stderr)")
        #expect(run.dump.stdout.split(separator: "\n").count == 6, "every item of the three pages")
        #expect(run.info.stdout.contains("http://\(Self.user):***@127.0.0.1:\(server.port)/items/"), "\(run.info.stdout)")

        // The URL as riffle shows it cannot fetch anything: it says so, rather than asking without it.
        let copied = try await RiffleBinary.run(["dump", shown, "--cache-dir", run.cache.path], environment: run.environment)
        #expect(copied.status == 2)
        #expect(copied.stderr.contains("the password of \(shown) is not kept"), "\(copied.stderr)")

        // Every request carried the credential (none went without it, none elsewhere), and nothing
        // riffle wrote or printed holds it.
        #expect(requests.list.withLock { $0 }.allSatisfy { $0 == "Basic \(Self.basic)" }, "\(requests.list.withLock { $0 })")
        #expect(!requests.list.withLock { $0 }.isEmpty)
        #expect(run.leaks(of: Self.spellings).isEmpty, "\(run.leaks(of: Self.spellings).joined(separator: "\n"))")
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
