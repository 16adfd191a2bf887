import DemoServer
import Foundation
import Testing
@testable import RiffleKit

@Suite("Credentials come from the environment and stay there")
struct FeedCredentialsTests {
    static let token = "tok-9f8e7d6c5b4a-secret"

    @Test func aTokenIsSentButNeverWrittenToTheCacheFolder() async throws {
        let server = try PaginationServer.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        var configuration = PageLoader.Configuration()
        configuration.environment = ["RIFFLE_TEST_TOKEN": Self.token]
        let feed = try Feed(template: server.baseURL.absoluteString + "/cursor", pagination: Pagination(.cursor(path: "data.after", parameter: "after")),
                            headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: URLSessionTransport(), configuration: configuration)

        _ = try await loader.load(3)

        #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" })
        let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let written = files.compactMap { FileManager.default.contents(atPath: $0.path) }
        #expect(written.count >= 6)  // three bodies, three metadata files
        #expect(written.allSatisfy { String(decoding: $0, as: UTF8.self).range(of: Self.token) == nil })
    }

    @Test func aMissingVariableIsNamedAndNoRequestIsSent() async throws {
        let server = try PaginationServer.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-credentials-\(UUID().uuidString)")
        var configuration = PageLoader.Configuration()
        configuration.environment = [:]
        let feed = try Feed(template: server.baseURL.absoluteString + "/page?page={page}", pagination: Pagination(.pageNumber(firstPage: 0)),
                            headers: ["Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"])
        let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: URLSessionTransport(), configuration: configuration)

        let error = await #expect(throws: RiffleError.self) { try await loader.load(1) }
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
