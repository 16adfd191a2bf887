import DemoServer
import Foundation
import Synchronization
import Testing
@testable import RiffleKit

@Suite("Credentials come from the environment and stay there")
struct FeedCredentialsTests {
    static let token = "tok-9f8e7d6c5b4a-secret"

    @Test func aTokenIsSentButNeverWrittenToTheCacheFolder() async throws {
        let server = try PaginationServer.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_TOKEN": Self.token]
        let feed = try Feed(template: server.baseURL.absoluteString + "/cursor", pagination: Pagination(.cursor(path: "data.after", parameter: "after")),
                            headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        _ = try await loader.load(3)

        #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" })
        let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let written = files.compactMap { FileManager.default.contents(atPath: $0.path) }
        #expect(written.count >= 6)  // three bodies, three metadata files
        #expect(written.allSatisfy { String(decoding: $0, as: UTF8.self).range(of: Self.token) == nil })
    }

    @Test func aQueryKeyIsSentButNeverWrittenEvenWhenTheServerEchoesItInItsLinks() async throws {
        let server = try PaginationServer.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_KEY": Self.token]
        let feed = try Feed(template: server.baseURL.absoluteString + "/link", pagination: Pagination(.linkHeader),
                            query: ["api_key": "${RIFFLE_TEST_KEY}", "lang": "en"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        let third = try await loader.load(3)

        #expect(third.items.map(\.title) == ["item 5"])
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.query("api_key") == Self.token && $0.query("lang") == "en" })
        let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let written = files.compactMap { FileManager.default.contents(atPath: $0.path) }
        #expect(written.count >= 6)  // three bodies, three metadata files
        #expect(written.allSatisfy { String(decoding: $0, as: UTF8.self).range(of: Self.token) == nil })
        // The stored pages are found again by the URLs their metadata keeps, the key left out.
        let offline = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)
        #expect(try await offline.load(2, policy: .returnCacheDontLoad).items.map(\.title) == ["item 3", "item 4"])
        #expect(server.requests.count == 3)
    }

    @Test func aNextPageAtAnotherOriginGetsNoneOfTheFeedsCredentials() async throws {
        let elsewhere = try HTTPServer { _ in .json(#"[{"title": "far away"}]"#) }
        let home = try HTTPServer { request in
            // The server echoes the key into its next link, as many do.
            let next = elsewhere.url("/p2?api_key=\(request.query("api_key") ?? "")").absoluteString
            return .json(#"[{"title": "at home"}]"#, headers: [("Link", "<\(next)>; rel=\"next\"")])
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let lines = Mutex<[String]>([])
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_TOKEN": Self.token, "RIFFLE_TEST_KEY": "key-\(Self.token)"]
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let feed = try Feed(template: home.url("/start").absoluteString, pagination: Pagination(.linkHeader),
                            headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}", "X-Api-Key": "${RIFFLE_TEST_KEY}"],
                            query: ["api_key": "${RIFFLE_TEST_KEY}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        #expect(try await loader.load(2).items.map(\.title) == ["far away"])

        let sent = try #require(home.requests.first)
        #expect(sent.header("Authorization") == "Bearer \(Self.token)" && sent.query("api_key") == "key-\(Self.token)")
        let away = try #require(elsewhere.requests.first)
        #expect(away.header("Authorization") == nil && away.header("X-Api-Key") == nil)
        #expect(!away.target.contains(Self.token), "\(away.target)")
        #expect(lines.withLock { $0 }.filter { $0.contains("another origin") }.count == 1)
    }

    /// The URL's user-info goes as Basic authentication to the feed's origin only: not to a next page
    /// elsewhere, not across a redirect, and never in a request URL.
    @Test func aURLsUserInfoGoesToItsOriginOnly() async throws {
        let elsewhere = try HTTPServer { request in
            request.path == "/bounce" ? .json("[]") : .json(#"[{"title": "far away"}]"#)
        }
        let home = try HTTPServer { request in
            if request.path == "/moved" {
                return HTTPServer.Response(status: 302, headers: [("Location", elsewhere.url("/bounce").absoluteString)], body: Data())
            }
            let next = elsewhere.url("/p2").absoluteString
            return .json(#"[{"title": "at home"}]"#, headers: [("Link", "<\(next)>; rel=\"next\"")])
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let feed = try Feed(template: "http://ann:pa%3Ass@127.0.0.1:\(home.port)/start", pagination: Pagination(.linkHeader))
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())
        #expect(try await loader.load(2).items.map(\.title) == ["far away"])
        let moved = try Feed(template: "http://ann:pa%3Ass@127.0.0.1:\(home.port)/moved?page={page}")
        _ = try await PageLoader(feed: moved, cacheDirectory: cache, transport: CurlTransport()).load(1)

        let basic = "Basic " + Data("ann:pa:ss".utf8).base64EncodedString()
        // The request as sent: the credential in its header, no user-info in its URL (so none for
        // libcurl to send on its own, and none in a key or a log line).
        let request = try loader.pageRequest(1, url: feed.url(forPage: 1))
        #expect(request.url.user == nil && request.url.password == nil && request.url.absoluteString == "http://127.0.0.1:\(home.port)/start")
        #expect(request.headers["Authorization"] == basic)
        #expect(home.requests.count == 2 && home.requests.allSatisfy { $0.header("Authorization") == basic })
        #expect(elsewhere.requests.count == 2 && elsewhere.requests.allSatisfy { $0.header("Authorization") == nil })
    }

    /// A key written in the URL's query (`api_key=KEY`) goes to the feed's origin only: a next page
    /// elsewhere is asked for with `***`, and an echo of the key comes back as `***`.
    @Test func aKeyWrittenInTheURLGoesToItsOriginOnly() async throws {
        let key = "k3y-0123456789abcdef"
        let elsewhere = try HTTPServer { _ in .json(#"[{"title": "far away"}]"#) }
        let home = try HTTPServer { request in
            // The server echoes the key into its next link and its body, as many do.
            let next = elsewhere.url("/p2?api_key=\(request.query("api_key") ?? "")").absoluteString
            return .json(#"[{"title": "at home", "self": "\#(request.target)"}]"#, headers: [("Link", "<\(next)>; rel=\"next\"")])
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let feed = try Feed(template: "http://127.0.0.1:\(home.port)/start?api_key=\(key)", pagination: Pagination(.linkHeader))
        #expect(feed.template == "http://127.0.0.1:\(home.port)/start?api_key=***")
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport())

        let first = try await loader.load(1)
        #expect(first.items.first?.fields["self"]?.stringValue == "/start?api_key=***")
        #expect(try await loader.load(2).items.map(\.title) == ["far away"])

        #expect(home.requests.count == 1 && home.requests.allSatisfy { $0.query("api_key") == key })
        let away = try #require(elsewhere.requests.first)
        #expect(away.query("api_key") == "***", "\(away.target)")
        let request = try loader.pageRequest(1, url: feed.url(forPage: 1))
        #expect(request.url.absoluteString == "http://127.0.0.1:\(home.port)/start?api_key=\(key)")
        let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let written = files.compactMap { FileManager.default.contents(atPath: $0.path) }
        #expect(written.count >= 2)
        #expect(written.allSatisfy { String(decoding: $0, as: UTF8.self).range(of: key) == nil })
    }

    @Test func queryValuesAreFilledInAsOneValueAndAnUnsetOptionalOneIsLeftOut() throws {
        let feed = try Feed(template: "http://127.0.0.1:9/items?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            query: ["key": "${RIFFLE_KEY}", "sig": "${RIFFLE_SIG:-}", "plain": "a b"])
        let url = feed.url(forPage: 2)
        let sent = try feed.expandedURL(url, environment: ["RIFFLE_KEY": "a&b=c+d#e"])
        let items = URLComponents(url: sent, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map { $0.name } == ["page", "key", "plain"])
        #expect(items.first { $0.name == "key" }?.value == "a&b=c+d#e")
        #expect(sent.absoluteString.contains("key=a%26b%3Dc%2Bd%23e"))
        #expect(try feed.expandedURL(url, environment: ["RIFFLE_KEY": "k", "RIFFLE_SIG": "s"]).query?.contains("sig=s") == true)
        // What a server echoes back (a Link header, a next link in the body) is stored with the reference.
        let echoed = HTTPResponse(status: 200, headers: ["link": "<\(sent.absoluteString)>; rel=\"next\""],
                                  body: Data(#"{"next": "/items?key=a%26b%3Dc%2Bd%23e", "raw": "a&b=c+d#e"}"#.utf8), url: sent)
        let stored = feed.redacted(echoed, environment: ["RIFFLE_KEY": "a&b=c+d#e"])
        let storedText = stored.headers.values.joined() + String(decoding: stored.body, as: UTF8.self) + stored.url.absoluteString
        #expect(!storedText.contains("a&b=c+d#e") && !storedText.contains("a%26b%3Dc%2Bd%23e"))
        #expect(String(decoding: stored.body, as: UTF8.self) == #"{"next": "/items?key=%24%7BRIFFLE_KEY%7D", "raw": "${RIFFLE_KEY}"}"#)
        #expect(throws: FeedError.missingEnvironment(variable: "RIFFLE_KEY", usedBy: "key query parameter")) {
            try feed.expandedURL(url, environment: [:])
        }
        #expect(FeedError.missingEnvironment(variable: "RIFFLE_KEY", usedBy: "key query parameter").description
            == "environment variable RIFFLE_KEY is not set (the feed's key query parameter uses it)")
    }

    @Test func aMissingVariableIsNamedAndNoRequestIsSent() async throws {
        let server = try PaginationServer.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = PageLoader.Configuration()
        configuration.environment = [:]
        let feed = try Feed(template: server.baseURL.absoluteString + "/page?page={page}", pagination: Pagination(.pageNumber(firstPage: 0)),
                            headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        let error = await #expect(throws: FeedError.self) { try await loader.load(1) }
        #expect(error?.description == "environment variable RIFFLE_TEST_TOKEN is not set (the feed's Authorization header uses it)")
        #expect(server.requestCount == 0)
    }

    @Test func anOptionalVariableLeavesTheHeaderOut() throws {
        let feed = try Feed(template: "https://api.github.com/repos/a/b/issues", pagination: Pagination(.linkHeader),
                            headers: ["Authorization": "Bearer ${GITHUB_TOKEN:-}", "Accept": "application/json"])
        #expect(try feed.expandedHeaders(environment: [:]) == ["Accept": "application/json"])
        #expect(try feed.expandedHeaders(environment: ["GITHUB_TOKEN": "x"])["Authorization"] == "Bearer x")
    }
}
