import Foundation
import Testing
@testable import RiffleKit

/// What a person reading one item of a real API's response expects the list to show: the headline,
/// the link they would open (a page, never the API's own URL), the author and count facts, the time.
struct Expected: Sendable, CustomTestStringConvertible {
    var file: String
    var count: Int
    var index = 0
    var title: String
    var url: String?
    var details: [String]
    /// ISO 8601, or nil for no time.
    var time: String?
    var id: String? = nil

    var testDescription: String { "\(file)[\(index)]" }
}

/// Zero-config detection on whole responses of real APIs, saved as the APIs send them (Fixtures/).
@Suite("Zero-config detection on real API responses")
struct ItemCorpusTests {
    static let corpus: [Expected] = [
        Expected(file: "github-issues", count: 4, title: "Compiler crash: `isolated` parameter in a `nonisolated` async closure 💥",
                 url: "https://github.com/swiftlang/swift/issues/78213", details: ["mariadelacruz-dev", "5 reactions"],
                 time: "2024-11-28T09:41:17Z", id: "2701198544"),
        Expected(file: "github-issues", count: 4, index: 1, title: "[Sema] Diagnose `sending` results of non-`Sendable` type in Swift 6 mode",
                 url: "https://github.com/swiftlang/swift/pull/78209", details: ["hborla"], time: "2024-11-27T22:15:03Z"),
        Expected(file: "github-issues", count: 4, index: 3, title: "Improve diagnostic for missing `await` in autoclosure argument",
                 url: "https://github.com/swiftlang/swift/issues/78185", details: ["slavapestov", "1 comment"], time: "2024-11-26T03:33:09Z"),
        Expected(file: "github-search-repositories", count: 3, title: "swiftlang/swift", url: "https://github.com/swiftlang/swift",
                 details: ["swiftlang", "67854 stars"], time: "2015-10-23T21:15:07Z"),
        Expected(file: "github-releases", count: 3, title: "Swift 6.0.2 Release",
                 url: "https://github.com/swiftlang/swift/releases/tag/swift-6.0.2-RELEASE", details: ["shahmishal", "76 reactions"],
                 time: "2024-10-29T19:07:33Z"),
        Expected(file: "github-releases", count: 3, index: 1, title: "swift-6.0.1-RELEASE",
                 url: "https://github.com/swiftlang/swift/releases/tag/swift-6.0.1-RELEASE", details: ["shahmishal", "14 reactions"],
                 time: "2024-09-26T17:43:02Z"),
        Expected(file: "gitlab-issues", count: 3, title: "Merge request diff fails to load when a file path contains `#`",
                 url: "https://gitlab.com/gitlab-org/gitlab/-/issues/507781", details: ["jzhou-gl", "6 upvotes"],
                 time: "2024-11-29T10:04:51.127Z", id: "158829443"),
        Expected(file: "hn-algolia", count: 4, title: "Show HN: Riffle – browse any paged JSON API from the terminal",
                 url: "https://github.com/riffle-dev/riffle", details: ["mkovalenko", "142 points"], time: "2024-11-29T10:31:03Z",
                 id: "42280701"),
        Expected(file: "hn-algolia", count: 4, index: 1, title: "Ask HN: How do you keep a terminal app's cache honest?", url: nil,
                 details: ["ochre_fox", "17 points"], time: "2024-11-29T10:24:01Z"),
        Expected(file: "reddit-listing", count: 3, index: 1,
                 title: "Swift 6 strict concurrency migration: what finally made it click for me 🧵",
                 url: "https://www.reddit.com/r/swift/comments/1h2w3xb/swift_6_strict_concurrency_migration_what_finally/",
                 details: ["lin_and_async", "187 points"], time: "2024-11-25T13:55:18Z", id: "1h2w3xb"),
        Expected(file: "reddit-listing", count: 3, index: 2, title: "Building a TUI in pure Swift on Linux — ncurses, grapheme widths & all",
                 url: "https://blog.example.dev/swift-tui-linux", details: ["termcraft", "64 points"], time: "2024-11-25T11:48:21Z"),
        Expected(file: "lobsters", count: 3, title: "Writing a terminal UI without a framework", url: "https://jvns.example/posts/tui-from-scratch/",
                 details: ["jcs", "41 points"], time: "2024-11-29T14:12:44Z", id: "qzbmfv"),
        Expected(file: "lobsters", count: 3, index: 1, title: "What is your favourite JSON tool & why?", url: "https://lobste.rs/s/3xwz0a",
                 details: ["alice_b", "9 points"], time: "2024-11-29T12:47:03Z"),
        Expected(file: "devto", count: 3, title: "Building CLIs in Swift: argument parsing without a package",
                 url: "https://dev.to/samokafor/building-clis-in-swift-argument-parsing-without-a-package-4k2j",
                 details: ["samokafor", "23 reactions"], time: "2024-11-29T11:05:48Z", id: "2126412"),
        Expected(file: "devto", count: 3, index: 1, title: "Why your JSON parser is slow (and how a tape fixes it) ⚡",
                 url: "https://dev.to/priyaraman/why-your-json-parser-is-slow-and-how-a-tape-fixes-it-1b8c", details: ["priyaraman"],
                 time: "2024-11-29T10:44:03Z"),
        Expected(file: "stackexchange-questions", count: 3,
                 title: "How do I use \"async let\" with a throwing function in Swift's TaskGroup?",
                 url: "https://stackoverflow.com/questions/79236877/how-do-i-use-async-let-with-a-throwing-function-in-swifts-taskgroup",
                 details: ["María López", "3 points"], time: "2024-11-29T09:03:51Z"),
        Expected(file: "stackexchange-questions", count: 3, index: 2,
                 title: "Terminal shows <?> boxes for CJK characters in ncurses (mvaddwstr)",
                 url: "https://stackoverflow.com/questions/79236802/terminal-shows-boxes-for-cjk-characters-in-ncurses-mvaddwstr",
                 details: ["user21908342", "-1 points"], time: "2024-11-29T08:30:02Z"),
        Expected(file: "mastodon-statuses", count: 3,
                 title: "Mastodon 4.3.2 is out with security fixes & a few bug fixes. Please update! 🚀 Release notes: "
                     + "https://github.com/mastodon/mastodon/releases/tag/v4.3.2 #MastoAdmin",
                 url: "https://mastodon.social/@Gargron/113563201554802115", details: ["Gargron", "702 favourites"],
                 time: "2024-11-29T10:41:12Z", id: "113563201554802115"),
        Expected(file: "mastodon-statuses", count: 3, index: 1,
                 title: "@ferris 日本語の grapheme 幅、まだ難しいですね… <sigh> Flags like 🇯🇵🇺🇦 are two code points each.",
                 url: "https://fosstodon.org/@yuki/113563198743009011", details: ["yuki@fosstodon.org", "5 favourites"],
                 time: "2024-11-29T10:40:29Z"),
        Expected(file: "bluesky-author-feed", count: 3,
                 title: "Starter packs now support up to 150 people 🎉 Make one for your community and share it with a link.",
                 url: nil, details: ["bsky.app", "8124 likes"], time: "2024-11-29T18:02:11.402Z",
                 id: "at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3lc3z6ivlq22c"),
        Expected(file: "bluesky-author-feed", count: 3, index: 1,
                 title: "we're hiring! come build the open social web with us → bsky.social/about/join",
                 url: nil, details: ["jay.bsky.team", "2210 likes"], time: "2024-11-29T17:20:03.118Z"),
        Expected(file: "jsonapi-articles", count: 3, title: "JSON:API paints my bikeshed!", url: nil, details: [],
                 time: "2015-05-22T14:56:29Z", id: "1"),
        Expected(file: "jsonapi-articles", count: 3, index: 2, title: "Café & Code: a weekend with Ember", url: nil, details: [],
                 time: "2015-05-27T19:03:51Z", id: "3"),
        Expected(file: "hal-camunda-tasks", count: 3, title: "Approve Invoice", url: nil, details: [], time: "2024-11-29T09:12:44Z",
                 id: "2e7c3c9a-ae2f-11ef-9d2b-0242ac120002"),
        Expected(file: "npm-search", count: 3, title: "json5", url: "https://www.npmjs.com/package/json5", details: ["Aseem Kishore"],
                 time: "2022-12-31T15:44:30.123Z"),
        Expected(file: "npm-search", count: 3, index: 1, title: "@streamparser/json",
                 url: "https://www.npmjs.com/package/%40streamparser%2Fjson", details: ["juanjodiaz"], time: "2024-09-18T07:21:02.501Z"),
        Expected(file: "crates-io", count: 3, title: "syn", url: "https://github.com/dtolnay/syn", details: ["886431237 downloads"],
                 time: "2016-09-07T13:42:18.519406Z", id: "syn"),
        Expected(file: "crates-io", count: 3, index: 2, title: "tokio", url: "https://tokio.rs", details: ["326920551 downloads"],
                 time: "2016-07-01T20:40:52.127893Z"),
        Expected(file: "pypi-simple", count: 4, title: "httpx-0.27.2-py3-none-any.whl",
                 url: "https://files.pythonhosted.org/packages/7b/b2/708e112d8fdd7829cd4243970f0c223274051cb35ee80c03301ee29a3df0/httpx-0.27.2-py3-none-any.whl",
                 details: [], time: "2024-08-27T12:53:59.653157Z"),
        Expected(file: "dockerhub-repositories", count: 3, title: "alpine", url: nil, details: ["library", "11212 stars"],
                 time: "2024-11-13T18:06:52.911428Z"),
        Expected(file: "mediawiki-search", count: 3, title: "Terminal emulator", url: nil, details: [], time: "2024-11-02T08:27:41Z"),
        Expected(file: "mediawiki-search", count: 3, index: 2, title: "Kon’s terminal (Zürich)", url: nil, details: [],
                 time: "2023-06-05T12:00:09Z"),
        Expected(file: "youtube-search", count: 3, title: "Meet Swift 6 & data-race safety | WWDC24", url: nil,
                 details: ["Apple Developer"], time: "2024-06-12T17:00:08Z", id: "9VZkF_3mWTg"),
        Expected(file: "youtube-search", count: 3, index: 1, title: "Swift Concurrency: \"Sendable\" explained in 10 minutes", url: nil,
                 details: ["Sean Allen"], time: "2024-10-03T14:30:01Z"),
        Expected(file: "spotify-new-releases", count: 3, title: "GNX", url: "https://open.spotify.com/album/5WupqgR68HfuHt3BMJtgun",
                 details: ["Kendrick Lamar"], time: "2024-11-22", id: "5WupqgR68HfuHt3BMJtgun"),
        Expected(file: "spotify-new-releases", count: 3, index: 2, title: "Dúo — Sesiones en vivo",
                 url: "https://open.spotify.com/album/1bwbZJ6khPJyVpOaqgKsoZ", details: ["ROSALÍA"], time: "2024-11-29"),
        Expected(file: "slack-conversations-history", count: 3,
                 title: "Deploy of <https://status.example.com/builds/4812|build #4812> is done :tada: <@here> please check & report",
                 url: nil, details: ["U061F7AUR", "3 replies"], time: "2024-11-29T10:40:12.372349Z"),
        Expected(file: "slack-conversations-history", count: 3, index: 2, title: "Nightly build failed: 2 tests red", url: nil,
                 details: ["ci-bot"], time: "2024-11-29T08:46:43.0004Z"),
        Expected(file: "discourse-latest", count: 4, index: 1, title: "[Pitch] Isolated conformances", url: nil,
                 details: ["112 likes", "31 replies"], time: "2024-11-21T17:40:12.101Z", id: "76405"),
        Expected(file: "discourse-latest", count: 4, index: 2, title: "Swift 6 on Linux: “Sendable” warnings from Foundation", url: nil,
                 details: ["9 likes", "4 replies"], time: "2024-11-28T23:05:31.552Z"),
        Expected(file: "jira-search", count: 3, title: "Demo feed shows \"no list of items\" at page 25", url: nil,
                 details: ["Ann Müller", "2 votes"], time: "2024-11-29T08:14:31.402Z", id: "10214"),
        Expected(file: "jira-search", count: 3, index: 1, title: "Titles from Stack Exchange keep their HTML entities", url: nil,
                 details: ["Raj Patel"], time: "2024-11-28T15:40:02.009Z"),
        Expected(file: "graphql-github-issues", count: 3, title: "Compiler crash: `isolated` parameter in a `nonisolated` async closure 💥",
                 url: "https://github.com/swiftlang/swift/issues/78213", details: ["mariadelacruz-dev", "5 reactions"],
                 time: "2024-11-28T09:41:17Z", id: "78213"),
        Expected(file: "graphql-github-issues", count: 3, index: 2, title: "Improve diagnostic for missing `await` in autoclosure argument",
                 url: "https://github.com/swiftlang/swift/issues/78185", details: ["slavapestov", "1 comment"], time: "2024-11-26T03:33:09Z"),
        Expected(file: "graphql-gitlab-nodes", count: 3, title: "Merge request diff fails to load when a file path contains `#`",
                 url: "https://gitlab.com/gitlab-org/gitlab/-/issues/507781", details: ["jzhou-gl", "6 upvotes"],
                 time: "2024-11-29T10:04:51Z"),
        Expected(file: "odata-graph-messages", count: 3, title: "Q4 release checklist – please review by Friday",
                 url: "https://outlook.office365.com/owa/?ItemID=AAMkADAwATM0MDAAMS1iNTcwLWI2NTEtMDACLTAwCgBGAAADfdBDVxTnwUq3DZ6ttyS4OwcAuKH0BxCKgkm0D6LfNwBXGwAAAgEMAAAAuKH0BxCKgkm0D6LfNwBXGwAAAhYBAAAA&exvsurl=1&viewmodel=ReadMessageItem",
                 details: ["Raj Patel"], time: "2024-11-29T09:58:03Z"),
        Expected(file: "odata-graph-messages", count: 3, index: 2, title: "Re: 日本語のファイル名 & backups",
                 url: "https://outlook.office365.com/owa/?ItemID=AAMkADAwATM0MDAAMS1iNTcwLWI2NTEtMDACLTAwCgBGAAADfdBDVxTnwUq3DZ6ttyS4OwcAuKH0BxCKgkm0D6LfNwBXGwAAAgEMAAAAuKH0BxCKgkm0D6LfNwBXGwAAAhXzAAAA&exvsurl=1&viewmodel=ReadMessageItem",
                 details: ["Kenji Sato"], time: "2024-11-28T18:30:17Z"),
    ]

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: Fixture.url(file + ".json"))
    }

    @Test(arguments: corpus)
    func aPersonWouldAgree(_ expected: Expected) throws {
        let items = try ItemExtractor.items(in: Self.data(expected.file))
        #expect(items.count == expected.count)
        let item = try #require(items.indices.contains(expected.index) ? items[expected.index] : nil)
        #expect(item.title == expected.title)
        #expect(item.url == expected.url)
        #expect(item.details == expected.details)
        // Within a millisecond: Unix seconds with a fraction (Slack's `ts`) and ISO text round differently.
        let time = expected.time.flatMap(Self.reference)
        #expect((item.createdAt == nil) == (time == nil))
        if let created = item.createdAt, let time { #expect(abs(created.timeIntervalSince(time)) < 0.001) }
        if let id = expected.id { #expect(item.id == id) }
    }

    /// An expected time as Foundation's own ISO 8601 parser reads it: the oracle is not the parser under test.
    static func reference(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        let choices: [ISO8601DateFormatter.Options] = [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate]]
        for options in choices {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// Every file of the corpus, read as it came from the network and as read back from disk.
    static let files = Set(corpus.map(\.file)).sorted()

    @Test(arguments: files)
    func storedPagesReadAsFreshOnes(_ file: String) throws {
        let data = try Self.data(file)
        let fresh = try ItemExtractor.items(in: data)
        #expect(try ItemExtractor.items(inStoredPage: data) == fresh)
        // Each item's fields are the whole object, as the parser reads it (unwrapped from Reddit's
        // `{kind, data}`, GraphQL's `{cursor, node}` and Bluesky's `{post}`).
        let whole = try JSONParser.parse(data)
        for item in fresh {
            #expect(item.fields.objectValue != nil)
            #expect(item.title != "(untitled)" && !item.title.isEmpty)
            #expect(!item.title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        #expect(whole != .null)
    }

    @Test func hackerNewsTopStoriesAreIdsNotItems() throws {
        let data = try Self.data("hn-firebase-topstories")
        #expect(throws: FeedError.scalarItems(count: 500, kind: "numbers", path: "")) { try ItemExtractor.items(in: data) }
        #expect(FeedError.scalarItems(count: 500, kind: "numbers", path: "").description
            == "an array of 500 numbers, no objects to list")
    }

    @Test func jsonAPIsDataWinsOverTheLargerIncluded() throws {
        let items = try ItemExtractor.items(in: Self.data("jsonapi-articles"))
        #expect(items.allSatisfy { $0.fields["type"]?.stringValue == "articles" })
    }

    @Test func discoursesTopicsWinOverTheLargerUsers() throws {
        let items = try ItemExtractor.items(in: Self.data("discourse-latest"))
        #expect(items.map(\.id) == ["72210", "76405", "76490", "76503"])
    }

    @Test func aHALDocumentsTasksWinOverItsOtherEmbeddedLists() throws {
        let items = try ItemExtractor.items(in: Self.data("hal-camunda-tasks"))
        #expect(items.map(\.title) == ["Approve Invoice", "Assign Approver", "Prepare Bank Transfer"])
    }
}
