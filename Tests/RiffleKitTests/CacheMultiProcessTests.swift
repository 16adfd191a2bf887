import DemoServer
import Foundation
import Synchronization
import Testing
@testable import RiffleKit

@Suite("Cache shared by two processes")
struct CacheMultiProcessTests {
    static let directoryVariable = "RIFFLE_CACHE_CHILD_DIR"
    static let writerVariable = "RIFFLE_CACHE_CHILD_WRITER"
    static let keys = 20

    static func configuration() -> ResponseCache.Configuration {
        var configuration = ResponseCache.Configuration()
        configuration.inlineLimit = 2_000   // half the bodies inline, half in files
        configuration.memoryCountLimit = 0  // every read goes to the shared disk
        return configuration
    }

    static func request(_ key: Int) -> HTTPRequest { HTTPRequest(url: URL(string: "http://127.0.0.1:1/shared/\(key)")!) }

    /// The child's work; does nothing unless started by `twoProcessesWritingTheSameKeys`.
    @Test func childWriter() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.directoryVariable], let writer = environment[Self.writerVariable] else { return }
        let cache = ResponseCache(directory: URL(fileURLWithPath: path), configuration: Self.configuration())
        for round in 0..<(Self.keys * 6) {
            let key = round % Self.keys
            let pad = String(repeating: writer, count: (key % 2 == 0 ? 500 : 6_000) + round)
            let body = Data(#"{"writer": "\#(writer)", "round": \#(round), "pad": "\#(pad)"}"#.utf8)
            let url = Self.request(key).url
            _ = try await cache.response(for: Self.request(key), policy: .reloadIgnoringCache, maxAge: 3_600, validate: { _ in }) { _ in
                HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body, url: url)
            }
        }
    }

    @Test func twoProcessesWritingTheSameKeys() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-procs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = CacheShared<[String]>([])
        var configuration = Self.configuration()
        configuration.log = { line in lines.withLock { $0.append(line) } }

        let children = try await CacheChildProcess.run(filter: "childWriter", environments: ["a", "b"].map {
            [Self.directoryVariable: directory.path, Self.writerVariable: $0]
        })

        #expect(children.allSatisfy { $0.passed("childWriter") }, "\(children.map(CacheChildProcess.failures))")
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

    static let templateVariable = "RIFFLE_CACHE_CHILD_TEMPLATE"
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

    /// The child's work: `riffle dump --refresh` of every page, five times. Does
    /// nothing unless started by `twoProcessesRefreshingOneFeedLeaveEveryPageWhole`.
    @Test func childPageRefresher() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.directoryVariable], let template = environment[Self.templateVariable],
              let writer = environment[Self.writerVariable] else { return }
        let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: URL(fileURLWithPath: path), transport: CurlTransport())
        _ = writer
        for _ in 0..<Self.rounds {
            // Both in the same order, so they write each page at about the same moment.
            for number in 1...Self.pages {
                let page = try await loader.load(number, policy: .reloadIgnoringCache)
                #expect(page.source == .network && page.items.count == 1)
            }
        }
    }

    @Test func twoProcessesRefreshingOneFeedLeaveEveryPageWhole() async throws {
        let server = try Self.changingServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-refresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = server.baseURL.absoluteString + "/feed?page={page}"

        let children = try await CacheChildProcess.run(filter: "childPageRefresher", environments: ["a", "b"].map {
            [Self.directoryVariable: directory.path, Self.templateVariable: template, Self.writerVariable: $0]
        })

        #expect(children.allSatisfy { $0.passed("childPageRefresher") }, "\(children.map(CacheChildProcess.failures))")
        #expect(server.requestCount == 2 * Self.rounds * Self.pages)
        let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: directory, transport: CurlTransport())
        for number in 1...Self.pages {
            // The row's metadata and the file are one answer's: the ETag names the body's version.
            let stored = try #require(loader.store.stored(number), "page \(number) lost")
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
