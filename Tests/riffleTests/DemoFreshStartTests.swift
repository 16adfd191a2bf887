import Foundation
import RiffleKit
import RiffleReading
import Testing
@testable import riffle

/// The demo starts from its server each run: its stored pages are removed by the cache, which
/// deletes the regular files it wrote and nothing else put in that folder.
@Suite("the demo's fresh start removes only the pages riffle stored")
struct DemoFreshStartTests {
    @Test func aFolderAndAFilePlantedInTheDemosPlaceSurviveItsStart() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let log = ReadingLog(cacheDirectory: cache)

        // A first run stores the demo's page 1.
        let first = FeedShelf(cache: ResponseCache(directory: cache), transport: CurlTransport(), log: log, maxAge: nil, environment: [:])
        defer { first.stop() }
        let page = try await first.open(FeedShelf.demoName).pages.load(1, policy: .returnCacheElseLoad)
        #expect(page.source == .network)
        let folder = PageStore(cacheDirectory: cache, feedID: try FeedShelf.demoFeed(template: "http://127.0.0.1/{page}").id).directory
        let stored = folder.appending(path: "feed_1.json")
        #expect(FileManager.default.fileExists(atPath: stored.path))

        // Someone keeps things of their own there: a folder of files, a folder where page 2 would go,
        // a file of no name the cache writes, and one named like a file the cache could keep for
        // another owner (`stem.ext`), which no row names.
        let planted = folder.appending(path: "mine")
        try FileManager.default.createDirectory(at: planted.appending(path: "deeper"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: planted.appending(path: "deeper/notes.txt"))
        try FileManager.default.createDirectory(at: folder.appending(path: "feed_2.json/inside"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appending(path: "README"))
        try Data("keep".utf8).write(to: folder.appending(path: "notes.txt"))

        // The next run's demo starts from its server, and leaves them where they are.
        let second = FeedShelf(cache: ResponseCache(directory: cache), transport: CurlTransport(), log: log, maxAge: nil, environment: [:])
        defer { second.stop() }
        let opened = try second.open(FeedShelf.demoName)
        #expect(opened.pages.peekCachedPage(1) == nil, "no first frame from the pages being removed")
        let again = try await opened.pages.load(1, policy: .returnCacheElseLoad)
        #expect(again.source == .network, "the stored page was removed, so the demo asked its server")
        #expect(try String(contentsOf: planted.appending(path: "deeper/notes.txt"), encoding: .utf8) == "keep")
        #expect(try String(contentsOf: folder.appending(path: "README"), encoding: .utf8) == "keep")
        #expect(try String(contentsOf: folder.appending(path: "notes.txt"), encoding: .utf8) == "keep")
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "feed_2.json/inside").path))
        #expect(FileManager.default.fileExists(atPath: stored.path), "the new page 1 is stored")

        // Opened again in the same run, it keeps what it has.
        let reopened = try await second.open(FeedShelf.demoName).pages.load(1, policy: .returnCacheElseLoad)
        #expect(reopened.source == .cache)
    }
}
