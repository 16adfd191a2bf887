import DemoServer
import Foundation
import Synchronization
import Testing
@testable import RiffleKit

@Suite("A feed's secrets reach no message, log or file, and one credential's pages are never another's")
struct FeedSecretsTests {
    static let token = "tok/9f8e+7d6c"

    /// A fresh cache folder, removed by `cleanUp`.
    static func cacheFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("riffle-secrets-\(UUID().uuidString)")
    }

    /// Every byte under `folder`, as text.
    static func everythingWritten(under folder: URL) -> [String] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.compactMap { FileManager.default.contents(atPath: $0.path) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The spellings a server may echo `secret` in.
    static func spellings(of secret: String) -> [String] {
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        let escaped = secret.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
        return [secret, secret.replacingOccurrences(of: "/", with: "\\/"), escaped, encoded, encoded.lowercased()]
    }

    @Test func aTokenEchoedInA401ReachesNoErrorLogOrFile() async throws {
        let server = try HTTPServer { request in
            let sent = request.header("Authorization") ?? ""
            let body = #"{"error": "bad credentials: \#(sent.replacingOccurrences(of: "/", with: "\\/"))", "seen": "\#(sent)"}"#
            return .json(body, status: 401, headers: [("WWW-Authenticate", "Bearer realm=\"\(sent)\"")])
        }
        defer { server.stop() }
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let logFile = cache.appendingPathExtension("log")
        defer { try? FileManager.default.removeItem(at: logFile) }
        let lines = Mutex<[String]>([])
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_TOKEN": Self.token, "RIFFLE_LOG": logFile.path]
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let feed = try Feed(template: server.url("/items").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        let error = await #expect(throws: FeedError.self) { try await loader.load(1) }

        #expect(server.requests.first?.header("Authorization") == "Bearer \(Self.token)")
        let message = try #require(error?.description)
        #expect(message.hasPrefix("HTTP 401 Unauthorized: "), "\(message)")
        #expect(message.contains("${RIFFLE_TEST_TOKEN}"), "\(message)")
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        #expect(log.contains("401"), "the request was logged: \(log)")
        for text in [message, log] + lines.withLock({ $0 }) + Self.everythingWritten(under: cache) {
            for spelling in Self.spellings(of: Self.token) { #expect(!text.contains(spelling), "\(spelling) in \(text)") }
        }
    }

    @Test func aKeyEchoedPercentEncodedInAnErrorReadsAsTheReferenceTyped() async throws {
        // Given a feed whose key comes from the environment, and a server that quotes the request's
        // target (percent-encoded, as sent) in its 401 page and its JSON error.
        let server = try HTTPServer { request in
            .json(#"{"error": "bad key in \#(request.target)"}"#, status: 401)
        }
        defer { server.stop() }
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_KEY": Self.token]
        let feed = try Feed(template: server.url("/items").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            query: ["api_key": "${RIFFLE_TEST_KEY}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        // When page 1 fails.
        let error = await #expect(throws: FeedError.self) { try await loader.load(1) }

        // Then the message names the variable as the feed does, neither the key nor an encoding of the name.
        #expect(server.requests.first?.target.contains("%24%7B") == false)
        let message = try #require(error?.description)
        #expect(message.contains("api_key=${RIFFLE_TEST_KEY}"), "\(message)")
        #expect(!message.contains("%7B") && !message.contains("%7b"), "\(message)")
        for spelling in Self.spellings(of: Self.token) { #expect(!message.contains(spelling), "\(spelling) in \(message)") }
    }

    @Test func encodedReferencesReadAsTypedAndNothingElseChanges() {
        #expect(Feed.showingReferences("k=%24%7BAPI_KEY%7D&b=$%7bB2%7d, ${C}") == "k=${API_KEY}&b=${B2}, ${C}")
        #expect(Feed.showingReferences("a=%24%7BOPT%3A-%7D") == "a=${OPT:-}")
        for untouched in ["%24%7B1X%7D", "%24%7B%7D", "%24%7BA B%7D", "100%25", "%24%7BA", "${A}", "q=%2F"] {
            #expect(Feed.showingReferences(untouched) == untouched)
        }
    }

    @Test func secretsEchoedInAPageAreStoredAsReferencesAndThePageStaysReadable() async throws {
        let server = try HTTPServer { request in
            let key = request.query("api_key") ?? ""
            let items = FeedSecretsTests.spellings(of: key).enumerated().map { #"{"id": \#($0.offset), "title": "echo \#($0.element)"}"# }
            return .json(#"{"per_page": 150, "items": [\#(items.joined(separator: ","))]}"#, headers: [("X-Echo", key)])
        }
        defer { server.stop() }
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_KEY": Self.token, "PER_PAGE": "50"]
        let feed = try Feed(template: server.url("/items").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            query: ["api_key": "${RIFFLE_TEST_KEY}", "per_page": "${PER_PAGE}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        let page = try await loader.load(1)

        #expect(server.requests.first?.query("api_key") == Self.token)
        #expect(server.requests.first?.query("per_page") == "50", "a value that is no secret is sent as it is")
        #expect(page.items.count == 5)
        #expect(page.items.allSatisfy { $0.title.hasPrefix("echo ") && $0.title.contains("RIFFLE_TEST_KEY") }, "\(page.items.map(\.title))")
        #expect(try JSONParser.parse(page.data)["per_page"] == .number("150"), "50 is no secret: 150 stays a number")
        let written = Self.everythingWritten(under: cache)
        #expect(written.count >= 2)
        for text in written + [String(decoding: page.data, as: UTF8.self)] {
            for spelling in Self.spellings(of: Self.token) { #expect(!text.contains(spelling), "\(spelling) in \(text)") }
        }
    }

    /// A server whose page 1 says whose it is; both answers have the same size, as real pages often do.
    static func whoseServer() throws -> HTTPServer {
        try HTTPServer { request in
            let who = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? request.query("key") ?? "nobody"
            // Named in lower case: the token itself would be redacted from the page.
            return .json(#"{"items": [{"id": 1, "title": "page of \#(who.lowercased())"}]}"#, headers: [("Cache-Control", "max-age=3600")])
        }
    }

    @Test(arguments: [true, false])
    func aPageStoredForOneCredentialIsNeverServedForAnother(inHeader: Bool) async throws {
        let server = try Self.whoseServer()
        defer { server.stop() }
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let feed = try inHeader
            ? Feed(template: server.url("/p").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                   headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
            : Feed(template: server.url("/p").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                   query: ["key": "${RIFFLE_TEST_TOKEN}"])
        func loader(_ token: String?) -> PageLoader {
            var configuration = PageLoader.Configuration()
            configuration.environment = token.map { ["RIFFLE_TEST_TOKEN": $0] } ?? [:]
            return PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)
        }

        #expect(try await loader("ALICE").load(1).items.first?.title == "page of alice")
        #expect(loader("ALICE").peekCachedPage(1)?.items.first?.title == "page of alice")
        #expect(loader("BOBBY").peekCachedPage(1) == nil, "the first frame is not Alice's page")
        #expect(await loader("BOBBY").cachedPage(1) == nil)
        await #expect(throws: FeedError.request(.notCached)) { try await loader("BOBBY").load(1, policy: .returnCacheDontLoad) }
        #expect(server.requestCount == 1)

        let bob = try await loader("BOBBY").load(1)
        #expect(bob.items.first?.title == "page of bobby" && bob.source == .network)
        #expect(server.requestCount == 2)
        // Alice's index row still points at the page's file, which now holds Bob's page of the same size.
        let alice = try await loader("ALICE").load(1)
        #expect(alice.items.first?.title == "page of alice" && alice.source == .network)
        #expect(server.requestCount == 3)
        // Only the network needs the credential: a cache-only read without it gets the page as stored.
        let offline = try await loader(nil).load(1, policy: .returnCacheDontLoad)
        #expect(offline.items.first?.title == "page of alice")
        await #expect(throws: FeedError.missingEnvironment(variable: "RIFFLE_TEST_TOKEN", usedBy: inHeader ? "Authorization header" : "key query parameter")) {
            try await loader(nil).load(1)
        }
        #expect(server.requestCount == 3)
    }

    @Test func aValueWithALineBreakIsAnErrorNamingTheVariableAndNothingIsSent() async throws {
        let server = try Self.whoseServer()
        defer { server.stop() }
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_TOKEN": "secret\r\nX-Injected: 1"]
        let feed = try Feed(template: server.url("/p").absoluteString + "?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                   headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport(), configuration: configuration)

        let error = await #expect(throws: FeedError.self) { try await loader.load(1) }

        #expect(error == .unusableEnvironment(variable: "RIFFLE_TEST_TOKEN", usedBy: "Authorization header"))
        #expect(error?.description == "environment variable RIFFLE_TEST_TOKEN holds a line break, which cannot be sent (the feed's Authorization header uses it)")
        #expect(server.requestCount == 0)
    }
}
