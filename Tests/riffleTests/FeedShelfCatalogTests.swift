import Foundation
import RiffleKit
import RiffleReading
import RiffleTUI
import Testing
@testable import riffle

/// The feed list counts what is new in every feed: feeds.json is read once per change of the file,
/// not once per feed (1,000 feeds cost 12 s of CPU when it was).
@Suite("the feed list reads feeds.json once per change")
struct FeedShelfCatalogTests {
    @Test func listingAndCountingAThousandFeedsReadsTheFileOnceUntilItChanges() async throws {
        // Given a feeds file of a thousand feeds
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("riffle")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        func write(_ count: Int) throws {
            let feeds = (0..<count).map { #""f\#($0)": {"url": "http://127.0.0.1:9/f\#($0)?page={page}"}"# }.joined(separator: ",\n")
            try Data("{\"feeds\": {\n\(feeds)\n}}".utf8).write(to: config.appendingPathComponent("feeds.json"))
        }
        try write(1_000)
        let cache = folder.appendingPathComponent("cache")
        let shelf = FeedShelf(cache: ResponseCache(directory: cache), transport: CurlTransport(), log: ReadingLog(cacheDirectory: cache),
                              maxAge: nil, environment: ["XDG_CONFIG_HOME": folder.path, "HOME": folder.path])
        defer { shelf.stop() }
        // When the list is made and every feed's count asked, as the feed list does
        let entries = await shelf.entries()
        #expect(entries.filter { $0.origin == .feedsFile }.count == 1_000)
        for entry in entries { _ = await shelf.summary(of: entry) }
        // Then the file was read once
        #expect(shelf.catalogReads.withLock { $0 } == 1)
        // And a change is seen at the next look
        try write(3)
        #expect(await shelf.entries().filter { $0.origin == .feedsFile }.count == 3)
        #expect(shelf.catalogReads.withLock { $0 } == 2)
        _ = await shelf.summary(of: entries[0])
        #expect(shelf.catalogReads.withLock { $0 } == 2)
    }
}
