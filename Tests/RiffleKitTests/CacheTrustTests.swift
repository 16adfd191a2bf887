import DemoServer
import Foundation
import RiffleTestSupport
import RiffleStorage
import Testing
@testable import RiffleCache
@testable import RiffleKit
#if canImport(Glibc)
import Glibc
#endif

/// The cache trusts nothing it reads back: each test tampers with a cache folder the way a hostile
/// program, a careless script or a crash could, and checks that Riffle neither follows, serves nor
/// deletes anything it should not.
@Suite("Cache: a tampered cache folder")
struct CacheTrustTests {
    let server: DemoFeedServer
    let sandbox: URL
    let directory: URL
    let logLines = CacheShared<[String]>([])

    init() throws {
        server = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-trust-\(UUID().uuidString)")
        directory = sandbox.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: sandbox, withIntermediateDirectories: true)
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: sandbox)
    }

    func loader() throws -> PageLoader {
        var configuration = PageLoader.Configuration()
        let lines = logLines
        configuration.log = { line in lines.withLock { $0.append(line) } }
        return PageLoader(feed: try Feed(template: server.template), cacheDirectory: directory, transport: CurlTransport(),
                          configuration: configuration)
    }

    /// A file outside the cache folder that nothing may read, change or delete.
    func victim(_ name: String, _ contents: Data) throws -> URL {
        let url = sandbox.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    func index() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: directory.appendingPathComponent("responses/index.sqlite").path, access: .readWrite)
    }

    var log: [String] { logLines.withLock { $0 } }

    @Test func aPageFileSymlinkedOutsideIsNeverFollowed() async throws {
        defer { cleanUp() }
        let loader = try loader()
        let page = try await loader.load(1)
        // An outside file of exactly the indexed size, put in the page's place as a link.
        let secret = try victim("secret.json", Data(repeating: UInt8(ascii: " "), count: page.data.count - 2) + Data("[]".utf8))
        let file = loader.store.bodyURL(1)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: secret)

        #expect(loader.peekCachedPage(1) == nil)
        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(1, policy: .returnCacheDontLoad) }
        #expect(log.contains { $0.contains("feed_1.json: a symbolic link (never followed)") }, "\(log)")

        // Loading it again fetches it; the link is not the cache's to replace, so the page is shown
        // but not stored, and the outside file is as it was.
        let again = try await loader.load(1)
        #expect(again.source == .network && again.data == page.data)
        #expect(log.contains { $0.contains("could not store in the cache") }, "\(log)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == secret.path)
        #expect(try Data(contentsOf: secret).count == page.data.count)
        try await loader.cache.removeAll()
        #expect(FileManager.default.fileExists(atPath: secret.path))
    }

    @Test func aFeedFolderSymlinkedOutsideIsNeitherReadNorWritten() async throws {
        defer { cleanUp() }
        let loader = try loader()
        let page = try await loader.load(1)
        // The feed's folder becomes a link to an outside folder holding the same page.
        let outside = sandbox.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: loader.store.directory, to: outside)
        try FileManager.default.createSymbolicLink(at: loader.store.directory, withDestinationURL: outside)

        #expect(loader.peekCachedPage(1) == nil)
        let again = try await loader.load(1, policy: .reloadIgnoringCache)
        #expect(again.items == page.items)
        let second = try await loader.load(2)
        #expect(second.items.count == 30)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["feed_1.json"], "nothing written through the link")
        #expect(try Data(contentsOf: outside.appendingPathComponent("feed_1.json")) == page.data)
    }

    @Test func anIndexPathOutsideTheCacheIsNeverDeleted() async throws {
        defer { cleanUp() }
        let loader = try loader()
        _ = try await loader.load(1)
        _ = try await loader.load(2)
        let victimFolder = sandbox.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victimFolder, withIntermediateDirectories: true)
        let kept = victimFolder.appendingPathComponent("keep.txt")
        try Data("mine".utf8).write(to: kept)
        // Rows pointing out of the cache, at a folder and at a file.
        let index = try index()
        try index.execute("UPDATE entries SET path = '../victim' WHERE path LIKE '%feed_1.json'")
        try index.execute("UPDATE entries SET path = 'feeds/../../victim/keep.txt' WHERE path LIKE '%feed_2.json'")

        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(1, policy: .returnCacheDontLoad) }
        #expect(await loader.cachedPage(2) == nil)
        _ = try await loader.load(1)  // fetched again, replacing the row
        try await loader.removeStoredPages()
        try await loader.cache.removeAll()

        #expect(try Data(contentsOf: kept) == Data("mine".utf8))
        #expect(log.contains { $0.contains("not a path the cache writes") }, "\(log)")
    }

    @Test func aPageFileReplacedByAFolderIsLeftAlone() async throws {
        defer { cleanUp() }
        let loader = try loader()
        _ = try await loader.load(1)
        let file = loader.store.bodyURL(1)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let inside = file.appendingPathComponent("precious.txt")
        try Data("keep".utf8).write(to: inside)

        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(1, policy: .returnCacheDontLoad) }
        let again = try await loader.load(1)
        #expect(again.source == .network && again.items.count == 30)
        #expect(log.contains { $0.contains("a folder is in the way") }, "\(log)")
        try await loader.cache.removeAll()
        #expect(try Data(contentsOf: inside) == Data("keep".utf8))
    }

    @Test func aFIFOInAPagesPlaceDoesNotHang() async throws {
        defer { cleanUp() }
        let loader = try loader()
        _ = try await loader.load(1)
        let file = loader.store.bodyURL(1)
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o600) == 0)

        #expect(loader.peekCachedPage(1) == nil)
        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(1, policy: .returnCacheDontLoad) }
        #expect(log.contains { $0.contains("not a regular file") }, "\(log)")
    }

    @Test func aSymlinkedIndexIsNotOpened() async throws {
        defer { cleanUp() }
        let loader = try loader()
        _ = try await loader.load(1)
        let responses = directory.appendingPathComponent("responses")
        let moved = sandbox.appendingPathComponent("other.sqlite")
        try FileManager.default.moveItem(at: responses.appendingPathComponent("index.sqlite"), to: moved)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(at: responses.appendingPathComponent("index.sqlite" + suffix)) }
        try FileManager.default.createSymbolicLink(at: responses.appendingPathComponent("index.sqlite"), withDestinationURL: moved)
        let before = try Data(contentsOf: moved)

        let fresh = try self.loader()
        await #expect(throws: FeedError.request(.notCached)) { try await fresh.load(1, policy: .returnCacheDontLoad) }
        let page = try await fresh.load(2)
        #expect(page.items.count == 30)
        #expect(try Data(contentsOf: moved) == before)
    }

    @Test func temporaryFilesOfAKilledWriterGoWhenTheNextRunOnlyReadsFromTheCache() async throws {
        defer { cleanUp() }
        // Given a stored page, and what a writer killed mid-write (its process gone) left beside it
        let loader = try loader()
        _ = try await loader.load(1)
        let folder = loader.store.directory
        let gone = try await CacheChildProcess.exitedProcessID()
        let old = Date().addingTimeInterval(-60)
        let stale = folder.appendingPathComponent(".feed_2.json.\(gone).1f2e.tmp")
        try Data(repeating: 7, count: 50_000).write(to: stale)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: stale.path)
        let requests = server.requestCount
        // When the next run is answered wholly from the cache (nothing is stored)
        let next = try self.loader()
        #expect(try await next.load(1).source == .cache)
        #expect(server.requestCount == requests)
        // Then the dead writer's temporary file is gone, and only the page is left
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["feed_1.json"])
    }

    @Test func temporaryFilesLeftByAKilledRunAreRemovedAtTheFirstStore() async throws {
        defer { cleanUp() }
        let loader = try loader()
        _ = try await loader.load(1)
        let folder = loader.store.directory
        let gone = try await CacheChildProcess.exitedProcessID()
        let old = Date().addingTimeInterval(-60)
        // What `kill -9` in the middle of writes leaves: temporary files of a process that is gone.
        let stale = [".feed_2.json.\(gone).1f2e.tmp", ".feed_1.json.\(gone).ab.tmp"]
        for name in stale {
            try Data(repeating: 7, count: 50_000).write(to: folder.appendingPathComponent(name))
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.appendingPathComponent(name).path)
        }
        let staleBody = "." + String(repeating: "a", count: 64) + "-0123abcd.body.\(gone).ff.tmp"
        try Data(repeating: 7, count: 1_000).write(to: directory.appendingPathComponent("responses/" + staleBody))
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: directory.appendingPathComponent("responses/" + staleBody).path)
        // A write in progress (this process is alive), and things that only look like temporary files.
        let live = ".feed_3.json.\(getpid()).cd.tmp"
        try Data("{}".utf8).write(to: folder.appendingPathComponent(live))
        let foreign = ".notes.\(gone).aa.tmp"
        try Data("x".utf8).write(to: folder.appendingPathComponent(foreign))
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.appendingPathComponent(foreign).path)
        let folderLookingStale = ".feed_4.json.\(gone).bb.tmp"
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(folderLookingStale), withIntermediateDirectories: false)

        let next = try self.loader()
        _ = try await next.load(5)

        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == ["feed_1.json", "feed_5.json", live, foreign, folderLookingStale])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("responses/" + staleBody).path))
        #expect(log.contains { $0.contains("removed 3 temporary files") }, "\(log)")
    }
}
