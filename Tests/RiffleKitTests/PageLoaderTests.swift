import DemoServer
import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

@Suite("PageLoader against the demo server on 127.0.0.1")
final class PageLoaderTests: Sendable {
    let server: DemoFeedServer
    let cache: URL
    let loader: PageLoader

    init() throws {
        server = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-pages-\(UUID().uuidString)")
        loader = PageLoader(feed: try Feed(template: server.template), cacheDirectory: cache, transport: CurlTransport())
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: cache)
    }

    func file(_ page: Int) -> URL { loader.store.bodyURL(page) }

    @Test func firstLoadFetchesAndWritesTheExactBytes() async throws {
        let page = try await loader.load(1)
        #expect(page.source == .network)
        #expect(page.items.count == 30)
        #expect(page.status == 200)
        #expect(server.requestCount(page: 1) == 1)
        #expect(try Data(contentsOf: file(1)) == page.data)
        #expect(file(1).lastPathComponent == "feed_1.json")
    }

    @Test func secondLoadComesFromDiskWithNoRequest() async throws {
        let first = try await loader.load(1)
        let second = try await loader.load(1)
        #expect(second.source == .cache)
        #expect(second.items == first.items)
        #expect(second.fetchedAt.timeIntervalSince1970 == first.fetchedAt.timeIntervalSince1970)
        #expect(server.requestCount(page: 1) == 1)
    }

    @Test func reloadMakesExactlyOneRequestAndRewritesTheFile() async throws {
        _ = try await loader.load(2)
        try Data("[]".utf8).write(to: file(2))  // so the rewrite is visible
        let reloaded = try await loader.load(2, policy: .reloadIgnoringCache)
        #expect(reloaded.source == .network)
        #expect(server.requestCount(page: 2) == 2)
        #expect(try Data(contentsOf: file(2)) == reloaded.data)
    }

    @Test(arguments: [DemoFeedServer.Breakage.status(500), .invalidJSON])
    func failedReloadLeavesTheOldFileByteIdentical(breakage: DemoFeedServer.Breakage) async throws {
        _ = try await loader.load(3)
        let before = try Data(contentsOf: file(3))
        let metaBefore = try #require(loader.storedMetadata(3))
        server.brokenPages = [3: breakage]

        await #expect(throws: FeedError.self) { try await loader.load(3, policy: .reloadIgnoringCache) }

        #expect(try Data(contentsOf: file(3)) == before)
        #expect(loader.storedMetadata(3) == metaBefore)
        let cached = try await loader.load(3)
        #expect(cached.source == .cache)
    }

    @Test func httpErrorsReadAsOneLine() async throws {
        server.brokenPages = [5: .status(500)]
        do {
            _ = try await loader.load(5)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("HTTP 500 Internal Server Error"))
            #expect(!error.description.contains("\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: file(5).path))
    }

    @Test func concurrentLoadsOfOnePageShareOneRequest() async throws {
        // A server that holds its answer until the test lets it go: ordering, not a guessed delay.
        let feed = try DemoFeed.load()
        let gate = DispatchSemaphore(value: 0)
        let held = try HTTPServer { _ in
            gate.waitForTest()
            return .json(feed.pageJSON(4))
        }
        defer { held.stop() }
        let loader = PageLoader(feed: try Feed(template: held.baseURL.absoluteString + "/p/{page}"), cacheDirectory: cache,
                                transport: patientTransport())
        let first = Task { try await loader.load(4) }
        #expect(await eventually { held.requestCount >= 1 })
        let second = Task { try await loader.load(4) }
        let reload = Task { try await loader.load(4, policy: .reloadIgnoringCache) }
        #expect(await eventually { await loader.joinedCount >= 2 })
        gate.signal()
        let pages = try await [first.value, second.value, reload.value]
        #expect(held.requestCount == 1)
        #expect(Set(pages.map(\.data)).count == 1)
    }

    /// The default transport on loopback takes its turn from the loader's slots itself (the next
    /// request leaves from the thread that read the last answer): the limit and the order hold.
    @Test(arguments: [1, 3])
    func loopbackTransfersKeepTheLoadersLimit(limit: Int) async throws {
        let slow = try DemoFeedServer(latency: .milliseconds(20), maxAge: 3_600)
        defer { slow.stop() }
        var configuration = PageLoader.Configuration()
        configuration.maxConcurrentFetches = limit
        let loader = PageLoader(feed: try Feed(template: slow.template), cacheDirectory: cache, transport: CurlTransport(),
                                configuration: configuration)
        let pages = try await withThrowingTaskGroup(of: Page.self) { group in
            for page in 1...9 { group.addTask { try await loader.load(page) } }
            return try await group.reduce(into: [Page]()) { $0.append($1) }
        }
        #expect(slow.server.maxConcurrentRequests <= limit)  // reaching the limit is timing; keeping it is not
        #expect(slow.server.requestCount == 9)
        #expect(await loader.requestCount == 9)
        #expect(pages.map(\.number).sorted() == Array(1...9))
        #expect(pages.allSatisfy { $0.source == .network && !$0.items.isEmpty })
    }

    @Test func fetchesOfDifferentPagesWaitTheirTurn() async throws {
        let slow = try DemoFeedServer(latency: .milliseconds(50), maxAge: 3_600)
        defer { slow.stop() }
        let loader = PageLoader(feed: try Feed(template: slow.template), cacheDirectory: cache, transport: CurlTransport())
        try await withThrowingTaskGroup(of: Page.self) { group in
            for page in 1...4 { group.addTask { try await loader.load(page) } }
            for try await _ in group {}
        }
        #expect(slow.server.maxConcurrentRequests == 1)
        #expect(slow.server.requestCount == 4)
    }

    @Test func cacheOnlyMissIsNotCached() async throws {
        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(7, policy: .returnCacheDontLoad) }
        #expect(server.server.requestCount == 0)
    }

    @Test func corruptFileIsAMissThatRefetches() async throws {
        _ = try await loader.load(6)
        try Data(#"{"items": [{"title": "trunc"#.utf8).write(to: file(6))
        let page = try await loader.load(6)
        #expect(page.source == .network)
        #expect(server.requestCount(page: 6) == 2)
    }

    /// A stored page is read back checking its structure only (it was checked in full before it was
    /// written): a byte damaged in place, same size as the index recorded, shows as U+FFFD.
    @Test func storedPageWithInvalidUTF8InATitleIsShownWithoutACrash() async throws {
        let first = try await loader.load(1)
        var bytes = Array(try Data(contentsOf: file(1)))
        let key = Array("\"title\"".utf8)
        let at = try #require((0...(bytes.count - key.count)).first { Array(bytes[$0..<($0 + key.count)]) == key })
        let quote = try #require(bytes[(at + key.count)...].firstIndex(of: UInt8(ascii: "\"")))
        bytes[quote + 1] = 0xFF
        try Data(bytes).write(to: file(1))  // in place, same size: the index still takes it
        // A new loader, so the page comes from disk rather than from memory.
        let reader = PageLoader(feed: loader.feed, cacheDirectory: cache, transport: CurlTransport())
        let page = try await reader.load(1)
        #expect(page.source == .cache)
        #expect(page.items.count == first.items.count)
        #expect(page.items[0].title.hasPrefix("\u{FFFD}"))
        #expect(page.items[0].title.dropFirst() == first.items[0].title.dropFirst())
        #expect(page.items.dropFirst() == first.items.dropFirst())
        #expect(server.requestCount(page: 1) == 1)
        #expect(reader.peekCachedPage(1)?.items[0].title == page.items[0].title)
        #expect(await reader.cachedPage(1)?.items[0].title == page.items[0].title)
        // The detail view's full value reads the same way.
        #expect(page.items[0].fields["title"]?.stringValue == page.items[0].title)
    }

    @Test func foldersAreCreatedPrivate() async throws {
        _ = try await loader.load(1)
        for folder in [cache.appendingPathComponent("feeds"), loader.store.directory] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(folder.path)")
        }
    }

    @Test func pageFilesArePrivateAndNoTemporaryFileIsLeft() async throws {
        _ = try await loader.load(1)
        _ = try await loader.load(1, policy: .reloadIgnoringCache)  // replaced in place
        let mode = try FileManager.default.attributesOfItem(atPath: loader.store.bodyURL(1).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: loader.store.directory.path).sorted()
        #expect(names == ["feed_1.json"])  // its metadata is in the index
        #expect(loader.storedMetadata(1)?.url == server.template.replacingOccurrences(of: "{page}", with: "1"))
    }

    @Test func connectionRefusedIsAClearError() async throws {
        let refusing = try RefusingPort()
        let closed = try Feed(template: "http://127.0.0.1:\(refusing.port)/page/{page}")
        let loader = PageLoader(feed: closed, cacheDirectory: cache, transport: CurlTransport())
        await #expect(throws: FeedError.request(.cannotConnect(host: "127.0.0.1:\(refusing.port)", reason: "connection refused"))) {
            try await loader.load(1)
        }
        withExtendedLifetime(refusing) {}
    }
}
