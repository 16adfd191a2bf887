import DemoServer
import Foundation
import Testing
@testable import RiffleKit

/// Nothing in the cache folder is readable by other users: files 0600, folders 0700, the index and
/// its `-wal` and `-shm` included, whatever the process's umask.
@Suite("Cache: private files and folders")
struct CachePermissionTests {
    let server: DemoFeedServer
    let directory: URL

    init() throws {
        server = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-modes-\(UUID().uuidString)")
    }

    func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    /// A loader and a response cache sharing one folder, bodies never inline (so `.body` files exist).
    func loader() throws -> PageLoader {
        var configuration = ResponseCache.Configuration()
        configuration.inlineLimit = 0
        let cache = ResponseCache(directory: directory, configuration: configuration)
        let feed = try Feed(template: server.template)
        return PageLoader(feed: feed, cache: cache, client: Client(Client.Configuration(baseURL: feed.url(forPage: 1)), transport: CurlTransport()))
    }

    @Test func everyFileAndFolderIsPrivate() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: directory) }
        let loader = try loader()
        _ = try await loader.load(1)
        let other = HTTPRequest(url: server.url(page: 2))
        _ = try await loader.cache.response(for: other, policy: .returnCacheElseLoad, maxAge: 60, validate: { _ in }) { request throws(RiffleError) in
            try await CurlTransport().send(request)
        }

        let items = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let names = Set(items.map(\.lastPathComponent))
        // While the cache is open, the index has its -wal and -shm: all three are checked.
        #expect(names.isSuperset(of: ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "feed_1.json", "responses", "feeds"]), "\(names)")
        #expect(names.contains { $0.hasSuffix(".body") }, "\(names)")
        #expect(try mode(directory) == 0o700)
        for item in items {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isFolder)
            #expect(try mode(item) == (isFolder.boolValue ? 0o700 : 0o600), "\(item.path)")
        }
        withExtendedLifetime(loader) {}
    }

    @Test func anIndexAnOlderRiffleLeftReadableIsMadePrivate() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: directory) }
        let older = try loader()  // open, so the index has its -wal and -shm
        _ = try await older.load(1)
        let index = directory.appendingPathComponent("responses/index.sqlite")
        for suffix in ["", "-wal", "-shm"] { #expect(chmod(index.path + suffix, 0o644) == 0) }

        let newer = try loader()
        let page = try await newer.load(1, policy: .returnCacheDontLoad)

        #expect(page.source == .cache)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try mode(URL(fileURLWithPath: index.path + suffix)) == 0o600, "index.sqlite\(suffix)")
        }
        withExtendedLifetime((older, newer)) {}
    }
}
