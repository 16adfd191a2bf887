import DemoServer
import Foundation
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleKit

@Suite("Cache shared by two processes")
struct CacheMultiProcessTests {
    /// The same as `riffle-test-child cache-writer`'s, which writes the cache read here.
    static let keys = 20

    static func configuration() -> ResponseCache.Configuration {
        var configuration = ResponseCache.Configuration()
        configuration.inlineLimit = 2_000   // half the bodies inline, half in files
        configuration.memoryCountLimit = 0  // every read goes to the shared disk
        return configuration
    }

    static func request(_ key: Int) -> HTTPRequest { HTTPRequest(url: URL(string: "http://127.0.0.1:1/shared/\(key)")!) }

    @Test func twoProcessesWritingTheSameKeys() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-procs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = CacheShared<[String]>([])
        var configuration = Self.configuration()
        configuration.log = { line in lines.withLock { $0.append(line) } }

        let children = try await CacheChildProcess.run(["a", "b"].map { ["cache-writer", directory.path, $0] })

        #expect(children.allSatisfy { $0.passed("cache-writer") }, "\(children.map(CacheChildProcess.failures))")
        let cache = ResponseCache(directory: directory, configuration: configuration)
        var writers: Set<String> = []
        for key in 0..<Self.keys {
            let value = try #require(await cache.cachedValue(for: Self.request(key), maxAge: 3_600), "key \(key) lost")
            let document = try JSONParser.parse(value.response.body)  // whole, not torn
            writers.insert(try #require(document["writer"]?.stringValue))
        }
        #expect(writers.isSubset(of: ["a", "b"]))
        #expect(try await cache.statistics().entryCount == Self.keys)
        #expect(lines.withLock { $0 }.isEmpty, "\(lines.withLock { $0 })")
        let bodyFiles = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("responses").path)
            .filter { $0.hasSuffix(".body") }
        #expect(bodyFiles.count == Self.keys / 2)  // every replaced body file was removed
    }

    /// As `riffle-test-child page-refresher`: `riffle dump --refresh` of every page, five times.
    static let pages = 8

    /// A feed whose every answer is new: its version (a counter across all requests) is in the body
    /// and in the ETag, so a page whose metadata and body came from two answers is caught. The first
    /// request for a page waits (up to 2 s) for the second, so both processes store it at once.
    static func changingServer() throws -> HTTPServer {
        let state = Mutex((version: 0, arrivals: [String: Int]()))
        return try HTTPServer { request in
            let page = request.query("page") ?? "?"
            let arrival = state.withLock { $0.arrivals[page, default: 0] += 1; return $0.arrivals[page]! }
            let deadline = ContinuousClock.now + .seconds(2)
            while arrival % 2 == 1, state.withLock({ $0.arrivals[page]! }) == arrival, ContinuousClock.now < deadline {
                usleep(500)
            }
            let version = state.withLock { $0.version += 1; return $0.version }
            let padding = String(repeating: "x", count: version % 7 * 900)
            return .json(#"{"version": \#(version), "items": [{"id": \#(version), "title": "page \#(page) v\#(version)", "pad": "\#(padding)"}]}"#,
                         headers: [("ETag", "\"v\(version)\""), ("Cache-Control", "max-age=600")])
        }
    }

    static let rounds = 5

    @Test func twoProcessesRefreshingOneFeedLeaveEveryPageWhole() async throws {
        let server = try Self.changingServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-refresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = server.baseURL.absoluteString + "/feed?page={page}"

        let children = try await CacheChildProcess.run([["page-refresher", directory.path, template], ["page-refresher", directory.path, template]])

        #expect(children.allSatisfy { $0.passed("page-refresher") }, "\(children.map(CacheChildProcess.failures))")
        #expect(server.requestCount == 2 * Self.rounds * Self.pages)
        let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: directory, transport: CurlTransport())
        for number in 1...Self.pages {
            // The row's metadata and the file are one answer's: the ETag names the body's version.
            let stored = try #require(loader.storedBody(number), "page \(number) lost")
            let version = try #require(JSONParser.parse(stored.data)["version"]?.doubleValue)
            #expect(stored.metadata?.etag == "\"v\(Int(version))\"", "page \(number)")
            #expect(stored.metadata?.url == template.replacingOccurrences(of: "{page}", with: "\(number)"))
            // And `--offline` finds it.
            let page = try await loader.load(number, policy: .returnCacheDontLoad)
            #expect(page.data == stored.data && page.source == .cache)
        }
        #expect(server.requestCount == 2 * Self.rounds * Self.pages)
        let names = try FileManager.default.contentsOfDirectory(atPath: loader.store.directory.path).sorted()
        #expect(names == (1...Self.pages).map { "feed_\($0).json" }.sorted(), "no temporary file left")
        #expect(try await loader.cache.statistics().entryCount == Self.pages)
    }
}
