import DemoServer
import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

@Suite("Cache: PageLoader pages in the index")
final class CachePageLoaderTests: Sendable {
    let server: DemoFeedServer
    let directory: URL
    let clock = CacheTestClock()
    let loader: PageLoader

    init() throws {
        server = try DemoFeedServer(latency: .zero)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-pages-\(UUID().uuidString)")
        loader = PageLoader(feed: try Feed(template: server.template), cacheDirectory: directory,
                            transport: CurlTransport(), clock: clock.closure)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func aRevalidatedPageIsFreshInTheNextFirstFrameWithoutTheIndex() async throws {
        _ = try await loader.load(1)
        clock.advance(61)  // the demo server says max-age=60
        #expect(try await loader.load(1).source == .revalidated)

        // A new run's first frame reads the page file's own record: the 304 renewed it too.
        let next = PageLoader(feed: try Feed(template: server.template), cacheDirectory: directory, transport: CurlTransport(), clock: clock.closure)
        let page = try #require(next.peekCachedPage(1))
        #expect(page.fetchedAt == clock.date)
        #expect(page.freshUntil.map { $0 > clock.date } == true, "\(String(describing: page.freshUntil)) at \(clock.date)")
        // And the index, checked after, agrees with it.
        #expect(next.confirmPeekedPages().isEmpty)
        #expect(next.confirmPeekedPages().isEmpty, "each page is checked once")
    }

    @Test func stalePageIsRevalidatedAndItsFileKept() async throws {
        let first = try await loader.load(1)
        let file = loader.store.bodyURL(1)
        let before = try FileManager.default.attributesOfItem(atPath: file.path)
        clock.advance(61)  // the demo server says max-age=60

        let page = try await loader.load(1)

        #expect(page.source == .revalidated)
        #expect(page.data == first.data)
        #expect(page.fetchedAt == clock.date)
        #expect(server.server.requests.last?.header("If-None-Match") != nil)
        #expect(server.requestCount(page: 1) == 2)
        let after = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(try await loader.load(1).source == .cache)
        #expect(loader.storedBody(1)?.metadata?.fetchedAt == clock.date)
    }

    @Test func stalePageWhenTheServerIsGone() async throws {
        _ = try await loader.load(2)
        clock.advance(3_600)
        server.stop()
        let page = try await loader.load(2)
        #expect(page.source == .stale)
        #expect(clock.date.timeIntervalSince(page.fetchedAt) == 3_600)
    }

    @Test func pagesCountPerFeedAndOneFeedCanBeCleared() async throws {
        let one = try await loader.load(1)
        let two = try await loader.load(2)
        let stats = try await loader.cache.statistics()
        let feed = try #require(stats.owners.first)
        #expect(stats.owners.count == 1)
        #expect(feed.owner == loader.feed.id)
        #expect(feed.count == 2)
        #expect(feed.size == one.data.count + two.data.count)
        #expect(stats.totalSize == feed.size)

        try await loader.removeStoredPages()

        #expect(try await loader.cache.statistics().entryCount == 0)
        #expect(loader.storedPageNumbers().isEmpty)
        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(1, policy: .returnCacheDontLoad) }
    }

    @Test func aPageFileTheIndexDoesNotKnowIsFetchedAgain() async throws {
        _ = try await loader.load(3)
        // The index is lost (a crash in the middle of replacing a damaged one, a hand deletion):
        // the page's file is nobody's, so it is not trusted.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("responses"))
        let fresh = PageLoader(feed: loader.feed, cacheDirectory: directory, transport: CurlTransport(), clock: clock.closure)

        #expect(fresh.peekCachedPage(3) == nil)
        await #expect(throws: FeedError.request(.notCached)) { try await fresh.load(3, policy: .returnCacheDontLoad) }
        let page = try await fresh.load(3)

        #expect(page.source == .network)
        #expect(server.requestCount(page: 3) == 2)
        #expect(try await fresh.cache.statistics().owners.first?.count == 1)
        #expect(try await fresh.load(3).source == .cache)
    }

    @Test func pagesCarryTheFreshnessTheCacheDecided() async throws {
        let first = try await loader.load(1)
        #expect(first.freshUntil == first.fetchedAt.addingTimeInterval(60))  // the demo server's max-age=60
        let stored = try await loader.load(1)
        #expect(stored.source == .cache && stored.freshUntil == first.freshUntil)
        #expect(loader.peekCachedPage(1)?.freshUntil == first.freshUntil)
        clock.advance(3_600)
        server.stop()
        let stale = try await loader.load(1)
        #expect(stale.source == .stale && stale.freshUntil == first.freshUntil)
    }

    @Test func aSilentServersPagesAreFreshForTheFeedsMaxAge() async throws {
        let silent = try HTTPServer { _ in .json(#"[{"id": 1, "title": "one"}]"#) }
        defer { silent.stop() }
        let feed = try Feed(template: silent.baseURL.absoluteString + "/p/{page}", pagination: Pagination(.pageNumber(firstPage: 1)), maxAge: 120)
        let loader = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport(), clock: clock.closure)
        let page = try await loader.load(1)
        #expect(page.freshUntil == clock.date.addingTimeInterval(120))
        #expect(loader.peekCachedPage(1)?.freshUntil == clock.date.addingTimeInterval(120))
    }
}
