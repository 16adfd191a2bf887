import Foundation
import Testing

@Suite("riffle cache: path, info and clear")
struct CacheCommandTests {
    func cache(_ fixture: DumpFixture, _ arguments: [String]) throws -> Spawn.Result {
        try RiffleBinary.run(["cache"] + arguments + ["--cache-dir", fixture.cache.path])
    }

    @Test func pathPrintsTheCacheFolderWhicheverSideTheOptionIsOn() throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        #expect(try cache(fixture, ["path"]).stdout == fixture.cache.standardizedFileURL.path + "\n")
        let before = try RiffleBinary.run(["--cache-dir", fixture.cache.path, "cache", "path"])
        #expect(before.stdout == fixture.cache.standardizedFileURL.path + "\n")
    }

    @Test func infoOnAnEmptyCache() throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try cache(fixture, ["info"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("no cached feeds\n"))
        #expect(try cache(fixture, ["info", "--json"]).stdout.contains("\"pages\":0,\"feeds\":[]"))
    }

    @Test func infoCountsPagesAndBytesPerFeed() throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.dump(["--pages", "1-3"])
        let json = try cache(fixture, ["info", "--json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let feeds = try #require(object["feeds"] as? [[String: Any]])
        #expect(feeds.count == 1)
        #expect(feeds[0]["pages"] as? Int == 3)
        let bytes = try #require(feeds[0]["bytes"] as? Int)
        let bodies = try (1...3).reduce(0) { sum, page in
            try sum + Data(contentsOf: fixture.feedFolder.appendingPathComponent("feed_\(page).json")).count
        }
        #expect(bytes > bodies)  // bodies plus their metadata
        #expect(feeds[0]["url"] as? String == fixture.server.url(page: 1).absoluteString)
        let text = try cache(fixture, ["info"]).stdout
        #expect(text.contains("3 pages") && text.contains("KB"), "\(text)")
        let one = try cache(fixture, ["info", fixture.template])
        #expect(one.stdout.contains("3 pages"))
    }

    @Test func clearOneFeedKeepsTheOthers() throws {
        let first = try DumpFixture()
        defer { first.cleanUp() }
        let second = try DumpFixture()
        defer { second.cleanUp() }
        _ = try first.dump([])
        _ = try RiffleBinary.run(["dump", second.template, "--cache-dir", first.cache.path])
        let result = try cache(first, ["clear", second.template])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: try first.feedFolder.path))
        let secondFolder = try first.feedFolder.deletingLastPathComponent()
            .appendingPathComponent(try second.feedFolder.lastPathComponent)
        #expect(!FileManager.default.fileExists(atPath: secondFolder.path))
    }

    @Test func clearEverythingRemovesOnlyRifflesFolders() throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.dump(["--pages", "1-2"])
        let bystander = fixture.cache.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: bystander)
        #expect(try cache(fixture, ["clear"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: fixture.cache.appendingPathComponent("feeds").path))
        #expect(FileManager.default.fileExists(atPath: bystander.path))
        #expect(try cache(fixture, ["info"]).stdout.hasSuffix("no cached feeds\n"))
    }

    @Test(arguments: [[], ["frobnicate"], ["path", "extra"], ["clear", "not-a-url"]])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try cache(fixture, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
