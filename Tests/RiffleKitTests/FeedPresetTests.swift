import Foundation
import Testing
@testable import RiffleKit

/// The saved responses under Fixtures/.
enum Fixture {
    static func url(_ file: String) throws -> URL {
        let name = (file as NSString).deletingPathExtension
        return try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
    }

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: url(file))
    }

    static func document(_ file: String) throws -> JSONDocument {
        try JSONDocument(data(file))
    }
}

@Suite("The shipped presets against saved responses of each API")
struct FeedPresetTests {
    let presets: FeedCatalog

    init() throws { presets = try PresetAssets.catalog(environment: [:]) }

    @Test func everyIssuePresetIsShipped() {
        #expect(presets.definitions.map(\.usage) == ["hn", "lobsters", "github:OWNER/REPO", "reddit:SUBREDDIT", "devto", "jsonplaceholder"])
        #expect(presets.definitions.allSatisfy { !$0.description.isEmpty })
    }

    @Test(arguments: [
        ("hn", nil, "hn-algolia.json", "Show HN: Riffle – browse any paged JSON API from the terminal", "42280701"),
        ("lobsters", nil, "lobsters.json", "Writing a terminal UI without a framework", "qzbmfv"),
        ("github", "apple/swift", "github-issues.json", "Compiler crash: `isolated` parameter in a `nonisolated` async closure 💥", "78213"),
        ("reddit", "swift", "reddit-listing.json", "Weekly Swift Questions Thread – November 25, 2024", "t3_1h2k9qz"),
        ("devto", nil, "devto.json", "Building CLIs in Swift: argument parsing without a package", "2126412"),
        ("jsonplaceholder", nil, "jsonplaceholder-posts.json", "sunt aut facere repellat provident occaecati", "1"),
    ] as [(String, String?, String, String, String)])
    func eachPresetReadsItsAPIsShape(name: String, argument: String?, fixture: String, title: String, id: String) throws {
        let feed = try #require(presets[name]).feed(argument: argument)
        let items = try ItemExtractor.items(in: Fixture.data(fixture), itemPath: feed.itemPath, fields: feed.fields)
        #expect(items.first?.title == title)
        #expect(items.first?.id == id)
        #expect(items.allSatisfy { $0.createdAt != nil } || name == "jsonplaceholder")  // its posts have no time
    }

    @Test func presetURLsAndPaginationMatchTheRealAPIs() throws {
        let hn = try #require(presets["hn"]).feed(argument: nil)
        #expect(hn.url(forPage: 1).absoluteString == "https://hn.algolia.com/api/v1/search_by_date?tags=story&page=0")
        let lobsters = try #require(presets["lobsters"]).feed(argument: nil)
        #expect(lobsters.url(forPage: 2).absoluteString == "https://lobste.rs/page/2.json")
        let github = try #require(presets["github"]).feed(argument: "apple/swift")
        #expect(github.url(forPage: 1).absoluteString == "https://api.github.com/repos/apple/swift/issues?per_page=30&state=open")
        #expect(github.name == "github:apple/swift")
        let placeholder = try #require(presets["jsonplaceholder"]).feed(argument: nil)
        #expect(placeholder.url(forPage: 3).absoluteString == "https://jsonplaceholder.typicode.com/posts?_page=3&_limit=20")
    }

    @Test func redditsAfterCursorBecomesTheNextPageAndNullEndsIt() throws {
        let reddit = try #require(presets["reddit"]).feed(argument: "swift")
        let first = reddit.url(forPage: 1)
        #expect(first.absoluteString == "https://www.reddit.com/r/swift/hot.json?limit=25&raw_json=1")
        let next = reddit.pagination.nextURL(after: first, headers: [:], document: try Fixture.document("reddit-listing.json"))
        #expect(next?.absoluteString == "https://www.reddit.com/r/swift/hot.json?limit=25&raw_json=1&after=t3_1h2tq0d")
        let last = try JSONDocument(Data(#"{"kind":"Listing","data":{"after":null,"children":[]}}"#.utf8))
        #expect(reddit.pagination.nextURL(after: first, headers: [:], document: last) == nil)
        #expect(try ItemExtractor.items(in: last, itemPath: reddit.itemPath).isEmpty)
    }

    @Test func githubsLinkHeaderGivesTheNextPage() throws {
        let header = #"<https://api.github.com/repositories/44838949/issues?state=open&per_page=30&page=2>; rel="next", <https://api.github.com/repositories/44838949/issues?state=open&per_page=30&page=40>; rel="last""#
        #expect(Pagination.nextLink(in: header) == "https://api.github.com/repositories/44838949/issues?state=open&per_page=30&page=2")
        #expect(Pagination.nextLink(in: #"<https://x.org/?page=1>; rel="prev", <https://x.org/?page=1>; rel="first""#) == nil)
    }

    @Test(arguments: [
        // Commas and semicolons inside the target, and a comma inside a quoted parameter.
        (#"<https://x.org/a?ids=1,2;v=3&page=1>; rel="prev", <https://x.org/a?ids=1,2;v=3&page=3>; title="a, b"; rel="next""#,
         "https://x.org/a?ids=1,2;v=3&page=3"),
        // Several relations in one rel, any case, with or without quotes and spaces.
        (#"<https://x.org/?p=2>; rel="prev next""#, "https://x.org/?p=2"),
        (#"<https://x.org/?p=4>;REL = NEXT"#, "https://x.org/?p=4"),
        (#"<https://x.org/?p=5>; rel="nextish", <https://x.org/?p=6>; rel=next"#, "https://x.org/?p=6"),
        (#"<https://x.org/?p=7>; rel="last""#, nil),
        (#"<https://x.org/?p=8; rel="next""#, nil),
        // Blanks around the target inside the brackets are not part of it; the rest is as written.
        (#"< https://x.org/items?page=2 >; rel="next""#, "https://x.org/items?page=2"),
        ("<\t https://x.org/?q=a%20b&p=3\t>; rel=next", "https://x.org/?q=a%20b&p=3"),
    ] as [(String, String?)])
    func nextLinksAreFoundWhateverTheirTargetsHold(header: String, expected: String?) {
        #expect(Pagination.nextLink(in: header) == expected)
    }

    /// A `Link` target written with spaces inside its brackets (`< https://… >`) is the page asked
    /// for next, not a URL with `%20` at both ends.
    @Test(arguments: ["< https://x.org/items?page=2 >", "<  /items?page=2 >"])
    func aLinkTargetWithBlanksInsideItsBracketsIsTheNextPage(target: String) throws {
        let next = Pagination(.linkHeader).nextURL(after: URL(string: "https://x.org/items?page=1")!,
                                                   headers: ["link": target + #"; rel="next""#], document: try JSONDocument(Data("[]".utf8)))
        #expect(next?.absoluteString == "https://x.org/items?page=2")
    }

    @Test func theGitHubTokenIsSentOnlyWhenSet() throws {
        let github = try #require(presets["github"]).feed(argument: "apple/swift")
        #expect(try github.expandedHeaders(environment: [:])["Authorization"] == nil)
        #expect(try github.expandedHeaders(environment: ["GITHUB_TOKEN": "t"])["Authorization"] == "Bearer t")
    }
}
