import Foundation
import Testing
import RiffleKit
@testable import riffle

@Suite("Resolving FEED: URL, preset, preset:argument, feeds-file name")
struct FeedResolverTests {
    let catalogs: FeedResolver.Catalogs

    init() throws {
        let user = try FeedCatalog.parse(Data(#"""
        {"feeds": {
          "work": {"description": "work tracker", "url": "https://tracker.example.com/api/items?page={page}",
                   "headers": {"Authorization": "Bearer ${WORK_TOKEN}"}},
          "news": {"description": "a keyed API", "url": "https://api.example.com/news?page={page}",
                   "query": {"api-key": "${NEWS_KEY}"}},
          "hn": {"description": "my own hn", "url": "https://hn.algolia.com/api/v1/search?tags=front_page&page={page}",
                 "pagination": {"style": "page", "first": 0}, "items": "hits"}
        }}
        """#.utf8), file: "/cfg/riffle/feeds.json")
        catalogs = .init(presets: try PresetAssets.catalog(environment: [:]), user: user, userFile: "/cfg/riffle/feeds.json")
    }

    func resolve(_ argument: String, firstPage: Int? = nil, environment: [String: String] = [:]) throws(Arguments.UsageError) -> Feed {
        try FeedResolver.resolve(argument, firstPage: firstPage, catalogs: catalogs, environment: environment)
    }

    func message(_ argument: String, environment: [String: String] = [:]) -> String? {
        do { _ = try resolve(argument, environment: environment); return nil } catch { return error.description }
    }

    @Test func theFilesHideRulesComeBeforeEveryFeedsOwn() throws {
        let user = try FeedCatalog.parse(Data(#"""
        {"hide": ["crypto"], "feeds": {"mine": {"url": "https://x.example/{page}", "hide": ["author:bob"]}}}
        """#.utf8), file: "/cfg/riffle/feeds.json", presets: catalogs.presets)
        let catalogs = FeedResolver.Catalogs(presets: catalogs.presets, user: user, userFile: "/cfg/riffle/feeds.json")
        func rules(_ argument: String) throws -> [String] {
            try FeedResolver.resolve(argument, firstPage: nil, catalogs: catalogs, environment: [:]).hide.map(\.description)
        }
        #expect(try rules("mine") == ["crypto", "author:bob"])
        #expect(try rules("lobsters") == ["crypto"])
        #expect(try rules("https://y.example/{page}") == ["crypto"])
        // Without the file's rules, a feed hides nothing.
        #expect(try resolve("lobsters").hide.isEmpty)
    }

    @Test func aURLTemplateIsUsedAsIs() throws {
        let feed = try resolve("https://lobste.rs/page/{page}.json", firstPage: 0)
        #expect(feed.url(forPage: 1).absoluteString == "https://lobste.rs/page/0.json")
    }

    @Test func presetsOpenByNameAndWithTheirArgument() throws {
        #expect(try resolve("lobsters").url(forPage: 1).absoluteString == "https://lobste.rs/page/1.json")
        let github = try resolve("github:apple/swift")
        #expect(github.name == "github:apple/swift")
        #expect(github.pagination.style == .linkHeader)
        let reddit = try resolve("reddit:swift")
        #expect(reddit.url(forPage: 1).absoluteString.hasPrefix("https://www.reddit.com/r/swift/hot.json?"))
    }

    @Test func theFeedsFileOpensByNameAndWinsOverAPreset() throws {
        let work = try resolve("work", environment: ["WORK_TOKEN": "w"])
        #expect(work.url(forPage: 2).absoluteString == "https://tracker.example.com/api/items?page=2")
        #expect(try resolve("hn").url(forPage: 1).absoluteString == "https://hn.algolia.com/api/v1/search?tags=front_page&page=0")
    }

    @Test func anUnknownNameListsTheKnownOnes() {
        #expect(message("hackernews") == "unknown feed 'hackernews'; presets: hn, lobsters, github:OWNER/REPO, reddit:SUBREDDIT, devto, jsonplaceholder; feeds file: work, news, hn (or give a URL)")
    }

    @Test func aMissingEnvironmentVariableIsNamedWithoutAnyValue() {
        #expect(message("work") == "feed 'work': environment variable WORK_TOKEN is not set (the feed's Authorization header uses it)")
        #expect(message("news") == "feed 'news': environment variable NEWS_KEY is not set (the feed's api-key query parameter uses it)")
        #expect(message("news", environment: ["NEWS_KEY": "k"]) == nil)
    }

    @Test func presetArgumentsAreChecked() {
        #expect(message("github") == "'github' needs an argument: riffle github:OWNER/REPO")
        #expect(message("lobsters:x") == "'lobsters' takes no argument, got 'x'")
        #expect(message("reddit:a?b=c") == "'reddit': the argument 'a?b=c' may hold only letters, digits and - _ . /")
    }

    @Test func theFeedsFileIsFoundByTheXDGRules() {
        #expect(FeedsFileLocation.resolve(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path == "/x/riffle/feeds.json")
        #expect(FeedsFileLocation.resolve(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]).path == "/h/.config/riffle/feeds.json")
    }

    @Test func riffleFeedsListsNameDescriptionAndURL() {
        let text = FeedsCommand.listing(catalogs)
        #expect(text.contains("  github:OWNER/REPO  GitHub: open issues of a repository"))
        #expect(text.contains("https://api.github.com/repos/{arg}/issues"))
        #expect(text.contains("Feeds file /cfg/riffle/feeds.json:\n  work"))
    }
}
