import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache

@Suite("Cache tiers: LRU, size accounting, damaged files")
struct CacheTierTests {
    @Test func memoryTierEvictsTheLeastRecentlyUsedByCountAndCost() {
        var memory = MemoryCache<String, Int>(countLimit: 3, costLimit: 100)
        memory.set(1, for: "a", cost: 10)
        memory.set(2, for: "b", cost: 10)
        memory.set(3, for: "c", cost: 10)
        #expect(memory.value(for: "a") == 1)      // a is now the newest
        memory.set(4, for: "d", cost: 10)          // count limit: b goes
        #expect(memory.keysByRecency == ["d", "a", "c"])
        memory.set(5, for: "e", cost: 75)          // cost limit: 30 + 75 > 100, so c (the oldest) goes
        #expect(memory.keysByRecency == ["e", "d", "a"])
        #expect(memory.totalCost == 95)
        memory.set(6, for: "huge", cost: 101)      // larger than the whole tier: not kept
        #expect(memory.value(for: "huge") == nil)
        memory.set(7, for: "d", cost: 5)           // replacing updates the cost
        #expect(memory.totalCost == 90)
        #expect(memory.keysByRecency == ["d", "e", "a"])
    }

    @Test func lookingInANewCacheFolderWritesNothingUntilSomethingIsStored() async throws {
        let fixture = try CacheFixture()
        #expect(await fixture.cache.cachedValue(for: fixture.request(), maxAge: nil) == nil)
        await #expect(throws: RiffleError.notCached) { try await fixture.get(fixture.request(), .returnCacheDontLoad) }
        #expect(fixture.allFiles().isEmpty)
        _ = try await fixture.get(fixture.request())
        #expect(fixture.allFiles().contains { $0.path.hasSuffix("/responses/index.sqlite") })
        #expect(await fixture.cache.cachedValue(for: fixture.request(), maxAge: nil)?.source == .cache)
    }

    @Test func diskTierEvictsLeastRecentlyUsedAfterTheLimit() async throws {
        let fixture = try CacheFixture { $0.sizeLimit = 10_000; $0.memoryCountLimit = 0; $0.inlineLimit = 0 }
        let body = #"{"pad": "\#(String(repeating: "x", count: 3_000))"}"#
        fixture.route.withLock { $0.body = body }
        for name in ["a", "b", "c"] {
            _ = try await fixture.get(fixture.request("/\(name)"))
            fixture.clock.advance(1)
        }
        _ = try await fixture.get(fixture.request("/a"))  // touch a: b is now the least recently used
        fixture.clock.advance(1)
        #expect(try await fixture.cache.statistics().totalSize == 3 * body.utf8.count)

        _ = try await fixture.get(fixture.request("/d"))  // 4 × 3 KB > 10 KB

        let stats = try await fixture.cache.statistics()
        #expect(stats.entryCount == 3)
        #expect(stats.totalSize == 3 * body.utf8.count)
        #expect(stats.totalSize <= stats.sizeLimit)
        for (name, present) in [("a", true), ("b", false), ("c", true), ("d", true)] {
            let cached = await fixture.cache.cachedValue(for: fixture.request("/\(name)"), maxAge: nil)
            #expect((cached != nil) == present, "\(name)")
        }
        let bodies = fixture.allFiles().filter { $0.path.hasSuffix(".body") }
        #expect(bodies.count == 3)
    }

    @Test func truncatedBodyFileIsAMissThatIsRemovedAndLogged() async throws {
        let fixture = try CacheFixture { $0.inlineLimit = 0; $0.memoryCountLimit = 0 }
        _ = try await fixture.get(fixture.request())
        let file = try #require(fixture.allFiles().first { $0.path.hasSuffix(".body") })
        try file.data.prefix(5).write(to: URL(fileURLWithPath: file.path))

        let value = try await fixture.get(fixture.request())

        #expect(value.source == .network)
        #expect(fixture.server.requestCount == 2)
        #expect(fixture.log.contains { $0.contains("damaged") })
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func corruptIndexIsReplacedAndTheCacheKeepsWorking() async throws {
        let fixture = try CacheFixture()
        let folder = fixture.directory.appendingPathComponent("responses")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8_192).write(to: folder.appendingPathComponent("index.sqlite"))

        let first = try await fixture.get(fixture.request())
        let second = try await fixture.get(fixture.request())

        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(fixture.log.contains { $0.contains("damaged") })
    }

    @Test func clearAllAndClearOneFeed() async throws {
        let fixture = try CacheFixture { $0.inlineLimit = 0 }
        _ = try await fixture.get(fixture.request("/x"))
        try await fixture.cache.removeAll()
        #expect(try await fixture.cache.statistics().entryCount == 0)
        #expect(fixture.allFiles().allSatisfy { !$0.path.hasSuffix(".body") })
        #expect(try await fixture.get(fixture.request("/x")).source == .network)
    }

    @Test func invalidResponsesAreNeverStored() async throws {
        let fixture = try CacheFixture()
        fixture.route.withLock { $0.status = 404 }
        await #expect(throws: RiffleError.self) { try await fixture.get(fixture.request()) }
        fixture.route.withLock { $0.status = 200; $0.body = "{ truncated" }
        await #expect(throws: RiffleError.self) { try await fixture.get(fixture.request()) }
        fixture.route.withLock { $0.body = "{}" }
        await #expect(throws: RiffleError.validation(path: "$", expected: "items", actual: "nothing")) {
            try await fixture.cache.response(for: fixture.request(), policy: .returnCacheElseLoad, maxAge: nil,
                                             validate: { _ throws(RiffleError) in throw .validation(path: "$", expected: "items", actual: "nothing") },
                                             fetch: fixture.fetch)
        }
        #expect(try await fixture.cache.statistics().entryCount == 0)
    }
}
