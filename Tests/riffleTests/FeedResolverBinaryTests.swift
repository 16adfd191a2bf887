import DemoServer
import Foundation
import Testing

@Suite("riffle feeds and feed names, through the real binary")
struct FeedResolverBinaryTests {
    /// A config home holding `riffle/feeds.json` with `text`; the caller removes it.
    func configHome(_ text: String) throws -> String {
        let home = try RiffleBinary.temporaryDirectory()
        let folder = home.appending(path: "riffle")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appending(path: "feeds.json"))
        return home.path
    }

    static let feeds = #"{"feeds": {"work": {"description": "work tracker", "url": "https://t.example.com/api?page={page}", "headers": {"Authorization": "Bearer ${RIFFLE_WORK_TOKEN}"}}}}"#

    @Test func feedsListsPresetsAndTheFeedsFile() async throws {
        let home = try configHome(Self.feeds)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await RiffleBinary.run(["feeds"], environment: ["XDG_CONFIG_HOME": home])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["hn", "lobsters", "github:OWNER/REPO", "reddit:SUBREDDIT", "devto", "jsonplaceholder", "work"] {
            #expect(result.stdout.contains("  \(name) "), "\(name) missing from: \(result.stdout)")
        }
        #expect(result.stdout.contains("https://t.example.com/api?page={page}"))
    }

    @Test func aBrokenFeedsFileIsOneLineWithFileAndLine() async throws {
        let home = try configHome("{\n  \"feeds\": {\n    \"work\": {\"url\": }\n  }\n}\n")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await RiffleBinary.run(["hn"], environment: ["XDG_CONFIG_HOME": home])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("riffle: \(home)/riffle/feeds.json:3: not valid JSON"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anUnknownNameListsTheKnownOnes() async throws {
        let home = try configHome(Self.feeds)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await RiffleBinary.run(["hackernews"], environment: ["XDG_CONFIG_HOME": home])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("riffle: unknown feed 'hackernews'; presets: hn, lobsters, github:OWNER/REPO"))
        #expect(result.stderr.contains("feeds file: work"))
    }

    @Test func aFeedsFileThatCannotBeReadIsAnErrorNotNoFeeds() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appending(path: "riffle/feeds.json"), withIntermediateDirectories: true)
        let result = try await RiffleBinary.run(["feeds"], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr == "riffle: \(home.path)/riffle/feeds.json: a folder, not a file\n")
    }

    @Test func aMissingPresetsFileIsAnErrorNamingIt() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let missing = home.appending(path: "nope.json").path
        let result = try await RiffleBinary.run(["feeds"], environment: ["RIFFLE_PRESETS": missing, "XDG_CONFIG_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr == "riffle: \(missing): no such file (named by $RIFFLE_PRESETS)\n")
        #expect(result.stdout.isEmpty)
    }

    /// A URL needs no preset: with no feeds file the presets are not even read (they were parsed on
    /// every start, a sixth of a cached first frame), so a broken presets file does not stop it; a
    /// feeds file, whose entries may build on presets, still needs them.
    @Test func aURLIsOpenedWithoutReadingThePresetsUnlessAFeedsFileMayKeepItsPicks() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let missing = home.appending(path: "nope.json").path
        let server = try HTTPServer { _ in .json(#"{"items": [{"id": 1, "title": "one story"}]}"#) }
        defer { server.stop() }
        let arguments = ["dump", server.baseURL.absoluteString + "/items?page={page}", "--pages", "1", "--fields", "title",
                         "--cache-dir", home.appending(path: "cache").path]
        let environment = ["RIFFLE_PRESETS": missing, "XDG_CONFIG_HOME": home.path]

        let bare = try await RiffleBinary.run(arguments, environment: environment)
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stdout == #"{"title":"one story"}"# + "\n")

        try FileManager.default.createDirectory(at: home.appending(path: "riffle"), withIntermediateDirectories: true)
        try Data(#"{"feeds": {}}"#.utf8).write(to: home.appending(path: "riffle/feeds.json"))
        let withFeeds = try await RiffleBinary.run(arguments, environment: environment)
        #expect(withFeeds.status == 2)
        #expect(withFeeds.stderr == "riffle: \(missing): no such file (named by $RIFFLE_PRESETS)\n")
    }

    @Test func aPresetsFileReplacesTheBuiltInOnes() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appending(path: "presets.json")
        try Data(#"{"feeds": {"mine": {"description": "my preset", "url": "https://example.com/?p={page}"}}}"#.utf8).write(to: file)
        let result = try await RiffleBinary.run(["feeds"], environment: ["RIFFLE_PRESETS": file.path, "XDG_CONFIG_HOME": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  mine  my preset"))
        #expect(!result.stdout.contains("  hn "))
    }

    @Test func aMissingTokenIsNamedBeforeTheTerminalIsNeeded() async throws {
        let home = try configHome(Self.feeds)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try await RiffleBinary.run(["work"], environment: ["XDG_CONFIG_HOME": home, "RIFFLE_WORK_TOKEN": ""])
        #expect(result.status == 2)
        #expect(result.stderr == "riffle: feed 'work': environment variable RIFFLE_WORK_TOKEN is not set (the feed's Authorization header uses it)\n")
    }
}
