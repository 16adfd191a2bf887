import Foundation
import RiffleBrowser
import RiffleReading
import RiffleKit
import RiffleTUI
import Testing
@testable import riffle

/// Feeds in one line: feeds.json naming a preset, `riffle add`, `riffle feeds` listing each name
/// once, and renaming and removing feeds (the feed list's `e` and `d`).
@Suite("feeds in one line: presets by name, riffle add, rename and remove")
struct FeedsInOneLineTests {
    typealias Config = FeedsFileTests.Config

    static func catalogs(_ text: String) throws -> FeedResolver.Catalogs {
        let presets = try PresetAssets.catalog(environment: [:])
        return .init(presets: presets, user: try FeedCatalog.parse(Data(text.utf8), file: "feeds.json", presets: presets), userFile: "feeds.json")
    }

    static func resolve(_ argument: String, in catalogs: FeedResolver.Catalogs) throws -> Feed {
        try FeedResolver.resolve(argument, firstPage: nil, catalogs: catalogs, environment: [:])
    }

    @Test func aFeedMayBeAPresetWithItsArgumentOnOneLine() throws {
        let catalogs = try Self.catalogs(#"""
        {"feeds": {
          "rust": "reddit:rust",
          "swift": {"preset": "reddit:swift", "comments": true},
          "quiet": {"preset": "reddit:swift", "comments": false, "description": "no comments", "query": {"limit": "5"},
                    "fields": {"title": null, "author": "data.author"}},
          "news": "hn",
          "lob": "https://lobste.rs/page/{page}.json",
          "gh": "github"
        }}
        """#)
        let rust = try Self.resolve("rust", in: catalogs)
        let preset = try Self.resolve("reddit:rust", in: FeedResolver.Catalogs(presets: catalogs.presets, user: FeedCatalog(), userFile: ""))
        // The preset's URL, paging, fields and comments, under the name given: the same pages.
        #expect(rust.name == "rust" && rust.id == preset.id && rust.pagination == preset.pagination && rust.fields == preset.fields)
        #expect(rust.comments != nil && rust.url(forPage: 1).absoluteString.hasPrefix("https://www.reddit.com/r/rust/hot.json?"))
        #expect(try Self.resolve("swift", in: catalogs).comments == preset.comments)
        let quiet = try Self.resolve("quiet", in: catalogs)
        #expect(quiet.comments == nil && quiet.query["limit"] == "5" && quiet.query["raw_json"] == "1")
        #expect(quiet.fields.title == nil && quiet.fields.author == "data.author" && quiet.fields.link == "url")
        #expect(catalogs.user["quiet"]?.description == "no comments")
        #expect(try Self.resolve("news", in: catalogs).url(forPage: 1) == (try Self.resolve("hn", in: catalogs)).url(forPage: 1))
        #expect(try Self.resolve("lob", in: catalogs).url(forPage: 2).absoluteString == "https://lobste.rs/page/2.json")
        // A preset named without its argument takes it, as the preset does.
        #expect(catalogs.user["gh"]?.usage == "gh:OWNER/REPO")
        #expect(try Self.resolve("gh:apple/swift", in: catalogs).url(forPage: 1).absoluteString.hasPrefix("https://api.github.com/repos/apple/swift/issues"))
    }

    @Test(arguments: [
        (#"{"feeds": {"x": "nope:1"}}"#, "feeds.json: feed 'x': field '(value)': 'nope:1' is not a preset or a URL (presets: hn, lobsters"),
        (#"{"feeds": {"x": "reddit:../etc"}}"#, "feeds.json: feed 'x': field '(value)': 'reddit': the argument '../etc' may hold only"),
        (#"{"feeds": {"x": {"preset": "hn", "url": "https://a.example.com/{page}"}}}"#, "feeds.json: feed 'x': field 'url': unknown field"),
        (#"{"feeds": {"x": {"preset": 3}}}"#, "feeds.json: feed 'x': field 'preset': expected a string, got a number"),
        (#"{"feeds": {"x": {"preset": "hn", "comments": "yes"}}}"#, "feeds.json: feed 'x': field 'comments': expected an object, got a string"),
    ])
    func aWrongPresetIsOneLineNamingTheFeedAndField(text: String, message: String) {
        #expect { try Self.catalogs(text) } throws: { error in
            let description = "\(error)"
            return description.hasPrefix(message) && !description.contains("\n")
        }
    }

    @Test func addAppendsALineAndKeepsTheRest() throws {
        let before = "{\n  \"feeds\": {\n    \"work\": {\"url\": \"https://w.example.com/?page={page}\", \"maxAge\": 1.0e2}\n  }\n}\n"
        let config = try Config(before)
        let message = try AddCommand.add(name: "rust", feed: "reddit:rust", environment: config.environment)
        #expect(config.text == "{\n  \"feeds\": {\n    \"work\": {\"url\": \"https://w.example.com/?page={page}\", \"maxAge\": 1.0e2},\n    \"rust\": \"reddit:rust\"\n  }\n}\n")
        #expect(message == "added 'rust' (reddit:rust) to \(config.file.path); open it with: riffle rust")
        _ = try AddCommand.add(name: "lob", feed: "https://lobste.rs/page/{page}.json", environment: config.environment)
        let catalogs = try FeedResolver.Catalogs.load(environment: config.environment)
        #expect(catalogs.user.definitions.map(\.name) == ["work", "rust", "lob"])
        #expect(config.leftovers.isEmpty)
    }

    @Test func addMakesTheFileWhenThereIsNone() throws {
        let config = try Config()
        _ = try AddCommand.add(name: "rust", feed: "reddit:rust", environment: config.environment)
        #expect(config.text == "{\n  \"feeds\": {\n    \"rust\": \"reddit:rust\"\n  }\n}\n")
        #expect(try FileManager.default.attributesOfItem(atPath: config.file.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test(arguments: [
        ("work", "reddit:rust", "has a feed 'work' already: choose another name, or change it in the file"),
        ("rust", "nope", "unknown feed 'nope'"),
        ("rust", "reddit", "'reddit' needs an argument: riffle reddit:SUBREDDIT"),
        ("a b", "hn", "a feed name may hold letters, digits and - _ . (not first -), got 'a b'"),
        ("dump", "hn", "'dump' is one of riffle's commands: choose another name"),
        ("rust", "https://me:pw@x.example.com/{page}", "a URL with a password is not written to"),
        ("mine", "demo", "the built-in demo cannot be added: it is served inside riffle on a port chosen each run, "
            + "so there is no URL to keep; open it with riffle demo"),
    ])
    func addRefusesWithOneLineAndChangesNothing(name: String, feed: String, problem: String) throws {
        let before = #"{"feeds": {"work": {"url": "https://w.example.com/?page={page}"}}}"#
        let config = try Config(before)
        #expect { try AddCommand.add(name: name, feed: feed, environment: config.environment) } throws: { error in
            let message = "\(error)"
            return message.contains(problem) && !message.contains("\n")
        }
        #expect(config.text == before)
    }

    @Test func addRefusesAReadOnlyFileNamingItAndLeavesItAsItWas() async throws {
        let before = #"{"feeds": {"rust": "reddit:rust"}}"#
        let config = try Config(before)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: config.file.path)
        let result = try await RiffleBinary.run(["add", "swift", "reddit:swift"], environment: config.environment)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == "riffle: \(config.file.path) is read-only: nothing was written (make it writable to change its feeds)\n")
        #expect(config.text == before)
        #expect(try FileManager.default.attributesOfItem(atPath: config.file.path)[.posixPermissions] as? Int == 0o444)
        #expect(config.leftovers.isEmpty)
    }

    @Test(arguments: [
        ("a b", "a feed name may hold letters, digits and - _ . (not first -), got 'a b'"),
        ("-x", "a feed name may hold letters, digits and - _ . (not first -), got '-x'"),
        ("dump", "'dump' is one of riffle's commands: choose another name"),
        (String(repeating: "n", count: 65), "a feed name needs 1 to 64 characters, got 65"),
    ])
    func theFileRefusesTheNamesAddRefusesNamingTheEntry(name: String, problem: String) async throws {
        // Given a feeds file with a name riffle add refuses (which riffle NAME could not open)
        let config = try Config(#"{"feeds": {"ok": "hn", "\#(name)": "reddit:rust"}}"#)
        // Then reading it is one line naming the file, the entry and what is wrong, as add says it
        let line = "\(config.file.path): feed '\(name)': \(problem)"
        #expect(throws: Arguments.UsageError(line)) { try FeedResolver.Catalogs.load(environment: config.environment) }
        #expect(throws: Arguments.UsageError(problem)) { try AddCommand.add(name: name, feed: "hn", environment: [:]) }
        let listed = try await RiffleBinary.run(["feeds"], environment: config.environment)
        #expect(listed.status == 2 && listed.stdout.isEmpty && listed.stderr == "riffle: \(line)\n", "\(listed.stderr)")
    }

    @Test func addRunsFromTheCommandLine() async throws {
        let config = try Config(#"{"feeds": {"rust": "reddit:rust"}}"#)
        let added = try await RiffleBinary.run(["add", "swift", "reddit:swift"], environment: config.environment)
        #expect(added.status == 0 && added.stdout.hasPrefix("added 'swift' (reddit:swift) to "), "\(added.stderr)")
        let again = try await RiffleBinary.run(["add", "swift", "hn"], environment: config.environment)
        #expect(again.status == 2 && again.stderr.contains("has a feed 'swift' already") && again.stderr.split(separator: "\n").count == 1)
        let listed = try await RiffleBinary.run(["feeds"], environment: config.environment)
        #expect(listed.stdout.contains("  swift  ") || listed.stdout.contains("  swift "), "\(listed.stdout)")
    }

    /// A script adding feeds in parallel (`xargs -P`): every `riffle add` that says it added its
    /// feed did (before: each read the file, added its line and replaced the file, so all but a few
    /// were lost, each having said "added").
    @Test func addsRunAtOnceAreAllKept() async throws {
        let config = try Config(#"{"feeds": {"rust": "reddit:rust"}}"#)
        let names = (1...12).map { "feed\($0)" }
        let environment = config.environment
        let results = try await withThrowingTaskGroup(of: (String, Spawn.Result).self) { group in
            for name in names {
                group.addTask { (name, try await RiffleBinary.run(["add", name, "reddit:\(name)"], environment: environment)) }
            }
            // And one name twice: one of the two is told it is there already
            for _ in 0..<2 {
                group.addTask { ("twice", try await RiffleBinary.run(["add", "twice", "hn"], environment: environment)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (name, result) in results where name != "twice" {
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        #expect(results.filter { $0.0 == "twice" }.map(\.1.status).sorted() == [0, 2])
        let catalogs = try FeedResolver.Catalogs.load(environment: config.environment)
        for name in names + ["rust", "twice"] { #expect(catalogs.user[name] != nil, "\(name) lost: \(config.text)") }
    }

    @Test func riffleFeedsListsEachNameOnce() throws {
        let catalogs = try Self.catalogs(#"{"feeds": {"hn": {"preset": "hn", "fields": {"title": "story_title"}}, "rust": "reddit:rust"}}"#)
        let text = FeedsCommand.listing(catalogs)
        let names = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else { return nil }
            return String(word)
        }
        #expect(names.filter { $0 == "hn" }.count == 1, "\(text)")
        #expect(Set(names).count == names.count, "\(text)")
        #expect(text.contains("(hn: your feeds file's, below)"))
    }

    // MARK: Rename and remove (the feed list's e and d)

    static func entry(_ name: String, _ origin: FeedEntry.Origin) -> FeedEntry { FeedEntry(name: name, description: "", origin: origin) }

    @Test func renamingAFeedOfTheFileChangesItsKeyInPlace() async throws {
        let before = "{\"feeds\": {\n  \"a\": {\"url\": \"https://a.example.com/{page}\"},\n  \"b\": \"hn\"\n}}\n"
        let config = try Config(before)
        let shelf = try config.shelf()
        let log = shelf.log
        try await log.noteOpened(ReadingLog.FeedRef(id: "a-id", name: "a", title: "a"))
        let message = try await shelf.rename(Self.entry("a", .feedsFile), to: "alpha")
        #expect(message == "renamed 'a' to 'alpha' in \(config.file.path)")
        #expect(config.text == before.replacingOccurrences(of: "\"a\":", with: "\"alpha\":"))
        // The reading log files it under its new name: listed once.
        #expect(try await log.openedFeeds().map(\.feed.name) == ["alpha"])
        let names = await shelf.entries().map(\.name)
        #expect(names.filter { $0 == "alpha" }.count == 1 && !names.contains("a"))
        // A name the file has is refused, and so is a preset's renaming.
        await #expect(throws: OpenFailure.self) { try await shelf.rename(Self.entry("alpha", .feedsFile), to: "b") }
        await #expect(throws: OpenFailure.self) { try await shelf.rename(Self.entry("hn", .preset), to: "news") }
        #expect(config.text == before.replacingOccurrences(of: "\"a\":", with: "\"alpha\":"))
    }

    @Test func renamingAFeedOpenedBeforeSavesItByThatName() async throws {
        let config = try Config()
        let shelf = try config.shelf()
        try await shelf.log.noteOpened(ReadingLog.FeedRef(id: "r-id", name: "reddit:rust", title: "reddit:rust"))
        let message = try await shelf.rename(Self.entry("reddit:rust", .recent), to: "rust")
        #expect(message == "saved 'reddit:rust' as 'rust' in \(config.file.path)")
        #expect(config.text == "{\n  \"feeds\": {\n    \"rust\": \"reddit:rust\"\n  }\n}\n")
        #expect(try await shelf.log.openedFeeds().isEmpty)
        let entries = await shelf.entries()
        #expect(entries.first { $0.name == "rust" }?.origin == .feedsFile && !entries.contains { $0.name == "reddit:rust" })
    }

    @Test func removingTakesTheFeedOutOfTheFileOrTheOpenedList() async throws {
        let before = "{\"feeds\": {\n  \"a\": {\"url\": \"https://a.example.com/{page}\"},\n  \"b\": \"hn\"\n}}\n"
        let config = try Config(before)
        let shelf = try config.shelf()
        try await shelf.log.noteOpened(ReadingLog.FeedRef(id: "u-id", name: "https://u.example.com/{page}", title: "u"))
        try await shelf.log.noteOpened(ReadingLog.FeedRef(id: "b-id", name: "b", title: "b"))
        #expect(try await shelf.remove(Self.entry("b", .feedsFile)) == "removed 'b' from \(config.file.path)")
        #expect(config.text == "{\"feeds\": {\n  \"a\": {\"url\": \"https://a.example.com/{page}\"}\n}}\n")
        #expect(try await shelf.remove(Self.entry("https://u.example.com/{page}", .recent)) == "forgot 'https://u.example.com/{page}' (opened before)")
        #expect(try await shelf.log.openedFeeds().isEmpty)
        await #expect(throws: OpenFailure.self) { try await shelf.remove(Self.entry("demo", .demo)) }
        #expect(config.text == "{\"feeds\": {\n  \"a\": {\"url\": \"https://a.example.com/{page}\"}\n}}\n")
    }
}

extension FeedsInOneLineTests {
    /// README's example of feeds in one line reads, each feed as it says.
    @Test func theReadmesOneLineExampleReads() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../README.md").standardizedFileURL, encoding: .utf8)
        let start = try #require(readme.range(of: "or a URL, or a preset with some of its fields changed:\n\n```json\n"))
        let block = readme[start.upperBound...].prefix { $0 != "`" }
        let catalogs = try Self.catalogs(String(block))
        #expect(catalogs.user.definitions.map(\.name) == ["rust", "lobsters-page", "swift", "hn-titles"])
        let titles = try Self.resolve("hn-titles", in: catalogs)
        #expect(titles.fields.title == "story_title" && titles.fields.link == nil && titles.fields.id == "objectID")
    }
}
