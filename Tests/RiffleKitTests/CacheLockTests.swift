import DemoServer
import Foundation
import RiffleTestSupport
import Synchronization
import RiffleStorage
import Testing
@testable import RiffleCache
@testable import RiffleKit

/// Another program (a second riffle, a backup, `sqlite3` left open) holding the index's write lock.
@Suite("Cache: a lock held elsewhere")
struct CacheLockTests {
    let server: DemoFeedServer
    let directory: URL
    let logLines = CacheShared<[String]>([])

    init() throws {
        server = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-lock-\(UUID().uuidString)")
    }

    func loader(lockTimeout: Duration = .seconds(2)) throws -> PageLoader {
        var configuration = ResponseCache.Configuration()
        let lines = logLines
        configuration.log = { line in lines.withLock { $0.append(line) } }
        configuration.lockTimeout = lockTimeout
        let cache = ResponseCache(directory: directory, configuration: configuration)
        let feed = try Feed(template: server.template)
        let client = Client(Client.Configuration(baseURL: feed.url(forPage: 1)), transport: CurlTransport())
        return PageLoader(feed: feed, cache: cache, client: client)
    }

    /// A second connection, as another process has, holding `BEGIN EXCLUSIVE`.
    func holdLock() throws -> SQLiteDatabase {
        let holder = try SQLiteDatabase(path: directory.appendingPathComponent("responses/index.sqlite").path, access: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        return holder
    }

    @Test func everyPageArrivesAndAReadNeedsNoLock() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: directory) }
        let loader = try loader()
        let first = try await loader.load(1)
        let holder = try holdLock()

        // Before: 5 s busy timeout × 50 retries per statement, 264 s a page.
        let start = ContinuousClock.now
        for number in 2...11 {
            let page = try await loader.load(number)
            #expect(page.source == .network && page.items.count == 30, "page \(number)")
        }
        // One wait of the lock timeout (2 s), then the next stores do not wait at all.
        #expect(await loader.cache.lockTimeouts == 1)
        #expect(start.duration(to: .now) < .seconds(60))
        // A read (`--offline`) needs no write lock, though it changes the page's access time.
        let stored = try await loader.load(1, policy: .returnCacheDontLoad)
        #expect(stored.source == .cache && stored.data == first.data)
        #expect(loader.peekCachedPage(1)?.data == first.data)
        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(4, policy: .returnCacheDontLoad) }
        let warnings = logLines.withLock { $0 }.filter { $0.contains("could not store") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("index.sqlite: locked by another program") == true, "\(warnings)")

        // Once the lock is gone, pages are stored again.
        try holder.execute("COMMIT")
        _ = try await loader.load(7)
        #expect(try await loader.load(7, policy: .returnCacheDontLoad).source == .cache)
    }

    @Test func aStoreWaitingForTheLockLeavesTheCacheFreeForOthers() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: directory) }
        let loader = try loader(lockTimeout: .seconds(300))
        _ = try await loader.load(1)
        let holder = try holdLock()
        let finished = CacheShared(false)

        let waiting = Task {
            defer { finished.withLock { $0 = true } }
            return try await loader.load(2)
        }
        // The page's bytes are written under a temporary name before the lock is asked for, in the
        // same step of the cache's actor: once that file exists, the store is waiting for the lock.
        let deadline = ContinuousClock.now + patience
        while !temporaryFileExists(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(temporaryFileExists())

        // The cache's actor answers meanwhile: the wait suspends rather than blocking it (a blocking
        // wait would hold it until the lock timeout, 300 s).
        let asked = ContinuousClock.now
        let request = try loader.pageRequest(1, url: server.url(page: 1))
        #expect(await loader.cache.cachedValue(for: request, maxAge: nil) != nil)
        #expect(asked.duration(to: .now) < .seconds(60))
        #expect(!finished.withLock { $0 })

        try holder.execute("COMMIT")
        let page = try await waiting.value
        #expect(page.source == .network)
        #expect(try await loader.load(2, policy: .returnCacheDontLoad).data == page.data)
        #expect(logLines.withLock { $0 }.allSatisfy { !$0.contains("could not store") })
    }

    private func temporaryFileExists() -> Bool {
        let folder = directory.appendingPathComponent("feeds")
        let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return names.contains { $0.hasSuffix(".tmp") }
    }
}
