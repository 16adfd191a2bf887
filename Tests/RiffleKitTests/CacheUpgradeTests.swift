import DemoServer
import Foundation
import RiffleStorage
import Testing
@testable import RiffleCache
@testable import RiffleKit

/// A cache folder written by the previous layout (index version 1: page metadata in
/// `feed_<page>.meta.json` files) keeps its pages.
@Suite("Cache: an index of the previous version")
struct CacheUpgradeTests {
    @Test func pagesAndTheirMetadataFilesAreTakenIntoTheIndex() async throws {
        let server = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-v1-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = PageLoader(feed: try Feed(template: server.template), cacheDirectory: directory, transport: CurlTransport())
        let url = server.url(page: 1)
        let body = try await CurlTransport().send(HTTPRequest(url: url)).body
        let folder = directory.appendingPathComponent("feeds/\(loader.feed.id)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("responses"), withIntermediateDirectories: true)
        try body.write(to: folder.appendingPathComponent("feed_1.json"))
        let fetched = Date().addingTimeInterval(-10).timeIntervalSince1970
        try Data(#"{"etag":"\"e1\"","fetchedAt":\#(fetched),"next":"\#(url.absoluteString)&n=2","status":200,"url":"\#(url.absoluteString)"}"#.utf8)
            .write(to: folder.appendingPathComponent("feed_1.meta.json"))
        let v1 = try SQLiteDatabase(path: directory.appendingPathComponent("responses/index.sqlite").path, access: .readWrite)
        try v1.execute("""
            CREATE TABLE entries (key TEXT PRIMARY KEY, feed TEXT, path TEXT, body BLOB, size INTEGER NOT NULL,
            fetched_at REAL NOT NULL, last_access REAL NOT NULL, etag TEXT, last_modified TEXT, max_age REAL,
            status INTEGER NOT NULL, headers TEXT NOT NULL, vary TEXT NOT NULL DEFAULT '')
            """)
        let path = "feeds/\(loader.feed.id)/feed_1.json"
        // An older row for the same file (the page once fetched from another URL), then the page's own.
        for (key, time) in [("0000", fetched - 100), (CacheKey(try loader.pageRequest(1, url: url)).id, fetched)] {
            try v1.execute("INSERT INTO entries VALUES (?, ?, ?, NULL, ?, ?, ?, '\"e1\"', NULL, 600, 200, '{}', '')",
                           [.text(key), .text(loader.feed.id), .text(path), .int(Int64(body.count)), .real(time), .real(time)])
        }

        let page = try await loader.load(1, policy: .returnCacheDontLoad)

        #expect(page.source == .cache && page.data == body)
        #expect(server.requestCount(page: 1) == 1)
        #expect(loader.storedMetadata(1)?.url == url.absoluteString)
        #expect(loader.storedMetadata(1)?.next == url.absoluteString + "&n=2")
        #expect(loader.storedMetadata(1)?.etag == "\"e1\"")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["feed_1.json"])
        #expect(try v1.execute("PRAGMA user_version").first?[0].int == DiskCache.schemaVersion)
        #expect(try await loader.cache.statistics().entryCount == 1)
    }
}
