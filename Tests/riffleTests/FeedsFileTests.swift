import Foundation
import RiffleBrowser
import RiffleReading
import RiffleKit
import RiffleTUI
import Testing
@testable import riffle

/// feeds.json as riffle writes it: the field picker's picks, saved in the entry of the feed shown,
/// the rest of the file byte for byte, written atomically, and refused with one line when the file
/// is not what riffle can change.
@Suite("feeds.json written by riffle: picks, atomic writes, refusals")
struct FeedsFileTests {
    /// A config folder with `feeds.json` holding `text` (none when nil), removed afterwards.
    final class Config {
        let home: URL
        var file: URL { home.appending(path: "riffle/feeds.json") }
        var environment: [String: String] { ["XDG_CONFIG_HOME": home.path, "HOME": home.path] }

        init(_ text: String? = nil) throws {
            home = try RiffleBinary.temporaryDirectory()
            if let text {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }

        deinit { try? FileManager.default.removeItem(at: home) }

        var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

        func shelf() throws -> FeedShelf {
            FeedShelf(cache: ResponseCache(directory: home.appending(path: "cache")), transport: CurlTransport(),
                      log: ReadingLog(cacheDirectory: home.appending(path: "cache")), maxAge: nil, environment: environment)
        }

        func feedsFile() throws -> FeedsFile {
            FeedsFile(path: file.path, presets: try PresetAssets.catalog(environment: [:]))
        }

        /// Files in the folder other than feeds.json (a temporary file left behind).
        var leftovers: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []).filter { $0 != "feeds.json" }
        }
    }

    static let url = "http://127.0.0.1:9/items?page={page}"

    @Test func aPickForAURLMakesAFeedNamedAfterIt() throws {
        // Given no feeds file
        let config = try Config()
        let feed = try Feed(template: Self.url)
        // When the title is picked for a feed opened by URL
        let pinned = try config.shelf().pin(FieldPick(part: .title, path: "headline.main"), feed: feed, openedAs: Self.url)
        // Then a feed holding the URL and the pick is saved, 0600 in a 0700 folder
        #expect(config.text == """
        {
          "feeds": {
            "127.0.0.1-items": {
              "url": "http://127.0.0.1:9/items?page={page}",
              "fields": {
                "title": "headline.main"
              }
            }
          }
        }

        """)
        #expect(pinned.fields.title == "headline.main")
        #expect(pinned.message == "title: `headline.main`, saved in \(config.file.path) as '127.0.0.1-items'")
        #expect(try FileManager.default.attributesOfItem(atPath: config.file.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: config.file.deletingLastPathComponent().path)[.posixPermissions] as? Int == 0o700)
        // And the URL opens as that feed again
        let reopened = try FeedResolver.resolve(Self.url, firstPage: nil, catalogs: .load(environment: config.environment), environment: [:])
        #expect(reopened.fields.title == "headline.main" && reopened.id == feed.id)
        // When the link is picked, then the title automatic again
        _ = try config.shelf().pin(FieldPick(part: .link, path: "web"), feed: feed, openedAs: Self.url)
        let undone = try config.shelf().pin(FieldPick(part: .title, path: nil), feed: feed, openedAs: Self.url)
        // Then the same entry changes, and the title is found again
        #expect(config.text.contains("\"fields\": {\n        \"link\": \"web\"\n      }"))
        #expect(undone.fields == FieldMapping(link: "web"))
        #expect(undone.message.hasPrefix("title: automatic, saved in"))
        #expect(config.leftovers.isEmpty)
    }

    @Test func theRestOfTheFileStaysByteForByte() throws {
        let before = """
        {
            "feeds": {
                "work": {"url": "https://w.example.com/?page={page}", "maxAge": 1.0e2},
                "mine": {
                    "description": "é \\u00e9 \\"q\\"",
                    "url": "https://m.example.com/{page}",
                    "fields": {"title": "name", "link": "href"}
                },
                "z": {"url": "https://z.example.com/{page}"}
            }
        }
        """
        let config = try Config(before)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: config.file.path)
        let shelf = try config.shelf()
        _ = try shelf.pin(FieldPick(part: .time, path: "at"), feed: nil, openedAs: "mine")
        #expect(config.text == before.replacingOccurrences(of: "\"link\": \"href\"}", with: "\"link\": \"href\", \"time\": \"at\"}"))
        _ = try shelf.pin(FieldPick(part: .time, path: nil), feed: nil, openedAs: "mine")
        #expect(config.text == before)
        _ = try shelf.pin(FieldPick(part: .subtitle, path: "tags.0"), feed: nil, openedAs: "mine")
        #expect(config.text == before.replacingOccurrences(of: "\"link\": \"href\"}", with: "\"link\": \"href\", \"subtitle\": [\"tags.0\"]}"))
        // The file keeps its mode.
        #expect(try FileManager.default.attributesOfItem(atPath: config.file.path)[.posixPermissions] as? Int == 0o640)
    }

    @Test func aPresetsPickIsAFeedNamingThePreset() throws {
        let config = try Config("{\"feeds\": {}}\n")
        let shelf = try config.shelf()
        // hn pins its title: automatic is written as null, so it is found again.
        let pinned = try shelf.pin(FieldPick(part: .title, path: nil), feed: nil, openedAs: "hn")
        #expect(config.text == "{\"feeds\": {\"hn\": {\"preset\": \"hn\", \"fields\": {\"title\": null}}}}\n")
        #expect(pinned.fields.title == nil && pinned.fields.link == "url")
        // reddit:rust: an entry of its own, which `riffle reddit:rust` opens.
        _ = try shelf.pin(FieldPick(part: .author, path: "data.author"), feed: nil, openedAs: "reddit:rust")
        let catalogs = try FeedResolver.Catalogs.load(environment: config.environment)
        #expect(catalogs.user["reddit-rust"]?.preset == "reddit:rust")
        let reopened = try FeedResolver.resolve("reddit:rust", firstPage: nil, catalogs: catalogs, environment: [:])
        #expect(reopened.fields.author == "data.author" && reopened.fields.title == "title")
        // Its pages and reading log are the preset's: the same feed.
        let plain = try FeedResolver.resolve("reddit:rust", firstPage: nil,
                                             catalogs: .init(presets: catalogs.presets, user: FeedCatalog(), userFile: ""), environment: [:])
        #expect(reopened.id == plain.id && reopened.name == "reddit-rust")
    }

    @Test func aOneLineFeedBecomesAnObjectWhenPicked() throws {
        let config = try Config(#"{"feeds": {"rust": "reddit:rust", "other": "hn"}}"#)
        _ = try config.shelf().pin(FieldPick(part: .link, path: "data.permalink"), feed: nil, openedAs: "rust")
        #expect(config.text == #"{"feeds": {"rust": {"preset": "reddit:rust", "fields": {"link": "data.permalink"}}, "other": "hn"}}"#)
    }

    @Test(arguments: [
        ("[1, 2]", "field '(top level)': expected an object with \"feeds\""),
        ("{\"feeds\": [\n1]}", "field 'feeds': expected an object of feeds by name, got an array"),
        ("{\n\"feeds\": {,}}", ":2: not valid JSON: "),
        ("{\"feeds\": {\"mine\": {\"url\": \"https://m.example.com/{page}\", \"fields\": 3}}}", "field 'fields': expected an object, got a number"),
    ])
    func aFileRiffleCannotChangeIsLeftAsItWas(text: String, problem: String) throws {
        let config = try Config(text)
        #expect {
            try config.shelf().pin(FieldPick(part: .title, path: "x"), feed: nil, openedAs: "mine")
        } throws: { error in
            let message = (error as? OpenFailure)?.description ?? ""
            return message.contains(config.file.path) && message.contains(problem) && !message.contains("\n")
        }
        #expect(config.text == text && config.leftovers.isEmpty)
    }

    @Test func theDemoAndAURLWithAPasswordAreNotSaved() throws {
        let config = try Config()
        #expect(throws: OpenFailure.self) { try config.shelf().pin(FieldPick(part: .title, path: "x"), feed: nil, openedAs: "demo") }
        let secret = try Feed(template: "http://me:pw@127.0.0.1:9/items?page={page}")
        #expect(throws: OpenFailure.self) {
            try config.shelf().pin(FieldPick(part: .title, path: "x"), feed: secret, openedAs: Feed.hidingUserInfo(secret.template))
        }
        #expect(!FileManager.default.fileExists(atPath: config.file.path))
    }

    @Test func anEditOfAFileThatIsNotAnObjectSaysSoInOneLine() throws {
        let config = try Config("[1, 2]\n")
        #expect(throws: FeedsFile.Problem("\(config.file.path): expected a JSON object at the top level, got an array")) {
            try config.feedsFile().edit { (editor) throws(FeedsFile.Problem) in editor.remove(["feeds"]) }
        }
        #expect(config.text == "[1, 2]\n" && config.leftovers.isEmpty)
    }

    @Test func aWriteThatWouldBreakTheFileIsRefused() throws {
        let before = #"{"feeds": {"a": {"url": "https://a.example.com/{page}"}}}"#
        let config = try Config(before)
        #expect(throws: FeedsFile.Problem.self) {
            try config.feedsFile().edit { (editor) throws(FeedsFile.Problem) in
                do { try editor.set(["feeds", "a", "pagination"], to: "sideways") } catch { throw FeedsFile.Problem("\(error)") }
            }
        }
        #expect(config.text == before && config.leftovers.isEmpty)
    }
}
