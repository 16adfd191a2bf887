import Foundation
import RiffleKit
import RiffleReading
import Testing

@Suite("riffle cache: path, info and clear")
struct CacheCommandTests {
    func cache(_ fixture: DumpFixture, _ arguments: [String]) async throws -> Spawn.Result {
        try await RiffleBinary.run(["cache"] + arguments + ["--cache-dir", fixture.cache.path])
    }

    @Test func pathPrintsTheCacheFolderWhicheverSideTheOptionIsOn() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        #expect(try await cache(fixture, ["path"]).stdout == fixture.cache.standardizedFileURL.path + "\n")
        let before = try await RiffleBinary.run(["--cache-dir", fixture.cache.path, "cache", "path"])
        #expect(before.stdout == fixture.cache.standardizedFileURL.path + "\n")
    }

    @Test func infoOnAnEmptyCache() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await cache(fixture, ["info"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("no cached feeds\n"))
        #expect(try await cache(fixture, ["info", "--json"]).stdout.contains("\"pages\":0,\"feeds\":[]"))
    }

    @Test func infoReportsTheReadingLogAgainstItsLimitWithoutMakingOne() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        // With no log, info says so and makes none
        #expect(try await cache(fixture, ["info"]).stdout.contains("reading log: none yet\n"))
        #expect(!FileManager.default.fileExists(atPath: fixture.cache.appendingPathComponent("reading.sqlite").path))
        // With items filed, it gives their count, the bytes on disk and the limit
        let log = ReadingLog(cacheDirectory: fixture.cache)
        let items = (1...3).map { Item(id: "\($0)", title: "item \($0)", details: [], url: nil, createdAt: nil, fields: .null) }
        try await log.record(items, feed: ReadingLog.FeedRef(id: "f", name: "f", title: "f"))
        let text = try await cache(fixture, ["info"]).stdout
        #expect(text.contains("reading log: ") && text.contains("of 50.0 MB, 3 items (kept by cache clear)"), "\(text)")
        let json = try await cache(fixture, ["info", "--json"]).stdout
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let reading = try #require(object["reading"] as? [String: Any])
        #expect(reading["items"] as? Int == 3 && reading["limit"] as? Int == 50_000_000 && (reading["bytes"] as? Int ?? 0) > 0)
    }

    @Test func infoCountsPagesAndBytesPerFeed() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump(["--pages", "1-3"])
        let json = try await cache(fixture, ["info", "--json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let feeds = try #require(object["feeds"] as? [[String: Any]])
        #expect(feeds.count == 1)
        #expect(feeds[0]["pages"] as? Int == 3)
        let bytes = try #require(feeds[0]["bytes"] as? Int)
        let bodies = try (1...3).reduce(0) { sum, page in
            try sum + Data(contentsOf: fixture.feedFolder.appendingPathComponent("feed_\(page).json")).count
        }
        #expect(bytes == bodies)  // the page files: their metadata is in the index
        #expect(feeds[0]["url"] as? String == fixture.server.url(page: 1).absoluteString)
        let text = try await cache(fixture, ["info"]).stdout
        #expect(text.contains("3 pages") && text.contains("KB"), "\(text)")
        let one = try await cache(fixture, ["info", fixture.template])
        #expect(one.stdout.contains("3 pages"))
    }

    @Test func clearOneFeedKeepsTheOthersAndSaysWhatWent() async throws {
        let first = try DumpFixture()
        defer { first.cleanUp() }
        let second = try DumpFixture()
        defer { second.cleanUp() }
        _ = try await first.dump([])
        _ = try await RiffleBinary.run(["dump", second.template, "--pages", "1-2", "--cache-dir", first.cache.path])
        let secondID = try second.feedFolder.lastPathComponent
        let result = try await cache(first, ["clear", second.template])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("removed \(secondID) (2 pages, "), "\(result.stdout)")
        #expect(result.stdout.hasSuffix(" \(second.server.url(page: 1).absoluteString)\n"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: try first.feedFolder.path))
        let secondFolder = try first.feedFolder.deletingLastPathComponent().appendingPathComponent(secondID)
        #expect(!FileManager.default.fileExists(atPath: secondFolder.path))

        let again = try await cache(first, ["clear", second.template])
        #expect(again.status == 0)
        #expect(again.stdout == "nothing cached for \(second.template) (\(secondID))\n")
    }

    @Test func clearAndInfoTakeTheIdsInfoPrints() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump(["--pages", "1-2"])
        let id = try fixture.feedFolder.lastPathComponent
        #expect(try await cache(fixture, ["info"]).stdout.contains("\(id)  "))
        #expect(try await cache(fixture, ["info", id]).stdout.contains("2 pages"))
        let result = try await cache(fixture, ["clear", id])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("removed \(id) (2 pages, "))
        #expect(try await cache(fixture, ["info"]).stdout.hasSuffix("no cached feeds\n"))
    }

    /// Naming a feed to clear makes no request, so its credentials need not be set.
    @Test func aFeedWithCredentialsIsClearedWithoutThem() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let home = fixture.cache.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("riffle"), withIntermediateDirectories: true)
        let feeds = #"{"feeds": {"work": {"url": "\#(fixture.template)", "headers": {"Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"}}}}"#
        try Data(feeds.utf8).write(to: home.appendingPathComponent("riffle/feeds.json"))
        let cacheFolder = fixture.cache.appendingPathComponent("cache").path
        let dumped = try await RiffleBinary.run(["dump", "work", "--cache-dir", cacheFolder],
                                          environment: ["XDG_CONFIG_HOME": home.path, "RIFFLE_TEST_TOKEN": "secret"])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let cleared = try await RiffleBinary.run(["cache", "clear", "work", "--cache-dir", cacheFolder],
                                           environment: ["XDG_CONFIG_HOME": home.path, "RIFFLE_TEST_TOKEN": ""])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.hasPrefix("removed "), "\(cleared.stdout)")
    }

    /// Only the network needs a credential: `--offline` reads the pages without it, but a page stored
    /// for one token is never printed for another.
    @Test func offlineReadsAFeedWithCredentialsWithoutThemButNeverForAnotherToken() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let home = fixture.cache.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("riffle"), withIntermediateDirectories: true)
        let feeds = #"{"feeds": {"work": {"url": "\#(fixture.template)", "headers": {"Authorization": "Bearer ${RIFFLE_TEST_TOKEN}"}}}}"#
        try Data(feeds.utf8).write(to: home.appendingPathComponent("riffle/feeds.json"))
        let cacheFolder = fixture.cache.appendingPathComponent("cache").path
        func dump(_ token: String, _ extra: [String] = []) async throws -> Spawn.Result {
            try await RiffleBinary.run(["dump", "work", "--cache-dir", cacheFolder, "--fields", "id"] + extra,
                                 environment: ["XDG_CONFIG_HOME": home.path, "RIFFLE_TEST_TOKEN": token])
        }

        let online = try await dump("ALICE")
        let offline = try await dump("", ["--offline"])
        let bob = try await dump("BOBBY", ["--offline"])

        #expect(online.status == 0 && !online.stdout.isEmpty, "\(online.stderr)")
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == online.stdout)
        #expect(bob.status == 1 && bob.stdout.isEmpty && bob.stderr == "riffle: page 1: not cached\n", "\(bob.stderr)")
        #expect(fixture.server.requestCount == 1)
    }

    @Test func clearEverythingWithoutATerminalNeedsYes() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump(["--pages", "1-2"])
        let refused = try await cache(fixture, ["clear"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "riffle: riffle cache clear without a feed removes everything in \(fixture.cache.standardizedFileURL.path); add --yes to do that without a terminal\n")
        #expect(FileManager.default.fileExists(atPath: try fixture.feedFolder.path), "nothing was removed")
    }

    @Test func clearEverythingRemovesOnlyRifflesFoldersAndSaysWhatWent() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump(["--pages", "1-2"])
        let bystander = fixture.cache.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: bystander)
        let result = try await cache(fixture, ["clear", "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("removed everything cached in \(fixture.cache.standardizedFileURL.path): 1 feed, 2 pages, "), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.cache.appendingPathComponent("feeds").path))
        #expect(FileManager.default.fileExists(atPath: bystander.path))
        #expect(try await cache(fixture, ["info"]).stdout.hasSuffix("no cached feeds\n"))
    }

    @Test(arguments: [[], ["frobnicate"], ["path", "extra"], ["clear", "not-a-url"], ["path", "--json"], ["info", "--yes"]])
    func usageErrorsExitTwo(arguments: [String]) async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await cache(fixture, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
