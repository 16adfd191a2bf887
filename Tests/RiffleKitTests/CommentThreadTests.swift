import Foundation
import Testing
@testable import RiffleKit

@Suite("Comment threads from whole saved answers of HN (Algolia), Reddit and Lobsters")
struct CommentThreadTests {
    let presets: FeedCatalog

    init() throws { presets = try PresetAssets.catalog(environment: [:]) }

    func rules(_ preset: String) throws -> CommentRules {
        try #require(presets[preset]?.comments)
    }

    /// Each comment as "depth author: text", the way a reader scans the tree.
    func outline(_ thread: CommentThread) -> [String] {
        thread.comments.map { comment in
            String(repeating: "  ", count: comment.depth) + "\(comment.author ?? "-"): " + (comment.more.map { "(\($0) more)" } ?? comment.text)
        }
    }

    @Test func hackerNewsNestsChildrenAndReadsHTMLAsText() throws {
        let thread = try CommentThread(JSONParser.parse(Fixture.data("hn-algolia-item.json")), rules: rules("hn"))
        #expect(outline(thread) == [
            "tptacek: This is neat. How does it decide which array is the list of items when there's more than one?\n\nI tried it on https://api.github.com/repos/apple/swift/issues [1] and it just worked.",
            "  mkovalenko: It scores every array of objects by how much its elements look like posts: a title-ish key first, then a time, then size. The rules are one table: ItemRules.\n\n  title, headline, subject, name...",
            "    tptacek: Makes sense — thanks! <3",
            "  -: [deleted]",
            "    鈴木ユキ: 日本語のタイトルも大丈夫でした 👍🏽 ターミナルで読めるのは嬉しい。",
            "pg_fan: Does it keep working offline? I read HN on the train.",
            "dang: [stub for offtopicness]",
            "  throwaway_4521: Why not just use curl | jq?",
        ])
        #expect(thread.comments.map(\.descendants) == [4, 1, 0, 1, 0, 0, 1, 0])
        #expect(thread.comments[0].createdAt == Date(timeIntervalSince1970: 1_732_876_263 + 420))
    }

    @Test func redditReadsTheSecondListingWithEmptyRepliesAndMoreStubs() throws {
        let thread = try CommentThread(JSONParser.parse(Fixture.data("reddit-comments.json")), rules: rules("reddit"))
        #expect(outline(thread) == [
            "swiftie_dev: How do I make an actor conform to a protocol with synchronous requirements?\n\nThe compiler says \"main actor-isolated\" & I'm lost.",
            "  mattie: Mark the requirement nonisolated if it doesn't touch state, or make the protocol async.\n\nactors protect their state",
            "    swiftie_dev: That worked, thanks! 🙏",
            "    -: (0 more)",
            "  -: (7 more)",
            "[deleted]: [deleted]",
            "kotlin_curious: Is SwiftUI on Linux a thing yet?",
        ])
        #expect(thread.comments[0].createdAt == Date(timeIntervalSince1970: 1_732_507_815))
        // Its markup, from `body_html`, styled rather than shown as Markdown's backticks and stars.
        func marked(_ comment: CommentThread.Comment, _ kind: MarkedText.Kind) -> [String] {
            let scalars = Array(comment.text.unicodeScalars)
            return comment.marks.filter { $0.kind == kind }.map { String(String.UnicodeScalarView(scalars[$0.range])) }
        }
        #expect(marked(thread.comments[0], .code) == ["actor"])
        #expect(marked(thread.comments[0], .italic) == ["\"main actor-isolated\""])
        #expect(marked(thread.comments[1], .code) == ["nonisolated"])
        #expect(marked(thread.comments[1], .quote) == ["actors protect their state"])
    }

    @Test func lobstersIsAFlatListWithDepths() throws {
        let thread = try CommentThread(JSONParser.parse(Fixture.data("lobsters-story.json")), rules: rules("lobsters"))
        #expect(outline(thread) == [
            "jcs: jq still, but gron [1] for exploring: it makes JSON greppable.",
            "  alice_b: Oh, gron is clever. Does it handle 1 GB files?",
            "    jcs: It streams, so mostly yes.",
            "ミドリ: fx の対話モードが好きです 🦀",
            "  bob_k: Comment removed by author",
        ])
        #expect(thread.comments.map(\.descendants) == [2, 1, 0, 1, 0])
    }

    /// A whole answer Reddit sent (PRAW's recording of /comments/3hahrw, see Fixtures/reddit-more/README.md),
    /// read with the reddit preset as riffle's comment view reads it.
    @Test func aRecordedRedditThreadReadsAsAPersonSeesIt() throws {
        let reddit = try rules("reddit")
        let thread = try CommentThread(RedditMore.json("comments-3hahrw"), rules: reddit, item: RedditMore.item)
        // 10 comments and 11 "load more" stubs, in the order and at the depths Reddit nests them.
        #expect(thread.comments.count == 21)
        #expect(thread.comments.filter { $0.more == nil }.count == 10)
        #expect(Array(outline(thread).prefix(7)) == [
            "johnnwho: Man I am glad there isn't someone on a drum set every time I fall over.",
            "  Lommo97: Better than being a fat guy and getting followed around with a Tuba all day.",
            "    mcampo84: I have a glandular problem!",
            "      -: (100 more)",
            "    -: (14 more)",
            "  -: (8 more)",
            // One paragraph with a line break in its Markdown, as reddit.com shows it: one line.
            "frittenlord: His emotionless face...oh god, I nearly pissed myself laughing! Thanks for brightening my monday!",
        ])
        // The preset reads `body_html`: a quote is a quote (not a ">" in the text), and a subreddit
        // named in a comment is a numbered link on reddit.com, as the page shows it.
        #expect(thread.comments[2].marks.map(\.kind) == [.quote])
        let linked = try #require(thread.comments.first { $0.text.hasPrefix("/r/noisygifs") })
        #expect(linked.text == "/r/noisygifs [1]")
        #expect(linked.links == [URL(string: "https://www.reddit.com/r/noisygifs")!])
        #expect(thread.comments.last.map { "\($0.depth) \($0.more ?? 0)" } == "0 332", "the thread's last stub: 332 more top-level comments")
        #expect(thread.comments[17].author == "[deleted]" && thread.comments[17].depth == 1)
        #expect(thread.comments[0].createdAt == Date(timeIntervalSince1970: 1_439_801_151))
        #expect(thread.comments[0].descendants == 5, "folding the first comment hides its two replies and the three stubs under it")
        // Reddit's 2017 answer carries no permalink on comments: riffle offers none rather than a made-up one,
        // and the discussion page comes from the story.
        #expect(thread.comments.allSatisfy { $0.permalink == nil })
        #expect(reddit.page(for: RedditMore.item)?.absoluteString == "https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/")
    }

    @Test func aDepthNeverJumpsMoreThanOneLevel() throws {
        let answer = try JSONParser.parse(Data(#"{"comments": [{"depth": 5, "comment": "a", "commenting_user": "x"}, {"depth": 9, "comment": "b", "commenting_user": "y"}]}"#.utf8))
        let thread = try CommentThread(answer, rules: rules("lobsters"))
        #expect(thread.comments.map(\.depth) == [0, 1])
    }

    @Test func anAnswerWithoutTheListSaysWhereItLookedAndNoCommentsIsAnEmptyThread() throws {
        #expect(throws: RiffleError.validation(path: "$.children", expected: "an array of comments", actual: "a string")) {
            try CommentThread(JSONParser.parse(Data(#"{"children": "none"}"#.utf8)), rules: rules("hn"))
        }
        #expect(try CommentThread(JSONParser.parse(Data(#"{"children": []}"#.utf8)), rules: rules("hn")).comments.isEmpty)
    }

    @Test func urlsComeFromTheItemAndStayOnTheirHost() throws {
        let hn = try ItemExtractor.items(in: Fixture.data("hn-algolia.json"), itemPath: "hits")[0]
        #expect(try rules("hn").url(for: hn)?.absoluteString == "https://hn.algolia.com/api/v1/items/42280701")
        #expect(try rules("hn").page(for: hn)?.absoluteString == "https://news.ycombinator.com/item?id=42280701")
        let reddit = try ItemExtractor.items(in: Fixture.data("reddit-listing.json"), itemPath: "data.children")[0]
        #expect(try rules("reddit").url(for: reddit)?.absoluteString == "https://www.reddit.com/comments/1h2k9qz.json?raw_json=1")
        #expect(try rules("reddit").page(for: reddit)?.absoluteString
            == "https://www.reddit.com/r/swift/comments/1h2k9qz/weekly_swift_questions_thread_%E2%80%93_november/")
        let lobsters = try ItemExtractor.items(in: Fixture.data("lobsters.json"))[1]
        #expect(try rules("lobsters").page(for: lobsters)?.absoluteString == "https://lobste.rs/s/3xwz0a/what_is_your_favourite_json_to")
        // A value that would climb the path, reach another host or add a query is refused or encoded.
        func item(_ fields: JSONValue) -> Item { Item(id: nil, title: "t", details: [], url: nil, createdAt: nil, fields: fields) }
        let reddit2 = try rules("reddit")
        #expect(reddit2.url(for: item(["id": "../../evil"])) == nil)
        #expect(reddit2.page(for: item(["permalink": ".evil.example/x"])) == nil, "the host would change")
        #expect(reddit2.url(for: item(["id": "a?b=c#d"]))?.absoluteString == "https://www.reddit.com/comments/a%3Fb%3Dc%23d.json?raw_json=1")
        #expect(try rules("lobsters").page(for: item(["comments_url": "javascript:alert(1)"])) == nil)
        #expect(try rules("hn").url(for: item([:])) == nil, "no objectID")
    }

    @Test func eachCommentHasItsPermalinkFromItsOwnFieldsAndTheStorys() throws {
        let hnItem = try ItemExtractor.items(in: Fixture.data("hn-algolia.json"), itemPath: "hits")[0]
        let hn = try CommentThread(JSONParser.parse(Fixture.data("hn-algolia-item.json")), rules: rules("hn"), item: hnItem)
        #expect(hn.comments[0].permalink?.absoluteString == "https://news.ycombinator.com/item?id=42280788")
        #expect(hn.comments[1].permalink?.absoluteString == "https://news.ycombinator.com/item?id=42280850")
        let redditItem = try ItemExtractor.items(in: Fixture.data("reddit-listing.json"), itemPath: "data.children")[0]
        let reddit = try CommentThread(JSONParser.parse(Fixture.data("reddit-comments.json")), rules: rules("reddit"), item: redditItem)
        #expect(reddit.comments[0].permalink?.absoluteString
            == "https://www.reddit.com/r/swift/comments/1h2k9qz/weekly_swift_questions_thread_november/lz1a2b3/")
        let lobstersItem = try ItemExtractor.items(in: Fixture.data("lobsters.json"))[1]
        let lobsters = try CommentThread(JSONParser.parse(Fixture.data("lobsters-story.json")), rules: rules("lobsters"), item: lobstersItem)
        #expect(lobsters.comments[0].permalink?.absoluteString == "https://lobste.rs/c/k8dz2m")
        // A placeholder the comment lacks is read in the story.
        let mine = CommentRules(url: "https://x.example/{objectID}", items: "children", children: "children", text: "text",
                                permalink: "https://x.example/s/{objectID}/c/{id}")
        let thread = try CommentThread(["children": [["id": 7, "text": "hi"]]], rules: mine, item: hnItem)
        #expect(thread.comments[0].permalink?.absoluteString == "https://x.example/s/42280701/c/7")
        // And without the story, or without a template, there is none.
        #expect(try CommentThread(JSONParser.parse(Fixture.data("hn-algolia-item.json")), rules: rules("hn")).comments[0].permalink == nil)
        #expect(try CommentThread(["children": [["id": 7, "text": "hi"]]], rules: CommentRules(url: "https://x.example/{objectID}",
                                  items: "children", text: "text"), item: hnItem).comments[0].permalink == nil)
    }

    @Test func aCommentsLinksAreNumberedAndResolvedAgainstTheDiscussionPage() throws {
        let hnItem = try ItemExtractor.items(in: Fixture.data("hn-algolia.json"), itemPath: "hits")[0]
        let answer: JSONValue = ["children": [["id": 9, "text": #"<p>See <a href="item?id=42280702">the other one</a> or <a href="https://x.example/">https://x.example/</a></p>"#]]]
        let comment = try CommentThread(answer, rules: rules("hn"), item: hnItem).comments[0]
        #expect(comment.text == "See the other one [1] or https://x.example/ [2]")
        #expect(comment.links.map(\.absoluteString) == ["https://news.ycombinator.com/item?id=42280702", "https://x.example/"])
    }
}

@Suite("The comments field of a feeds file")
struct CommentRulesFieldTests {
    static func parse(_ comments: String) throws(FeedCatalog.Error) -> FeedCatalog {
        try FeedCatalog.parse(Data(#"{"feeds": {"mine": {"url": "https://api.example.com/p/{page}", "comments": \#(comments)}}}"#.utf8), file: "feeds.json")
    }

    @Test func aFeedSaysWhereItsCommentsAre() throws {
        let catalog = try Self.parse(#"{"url": "https://api.example.com/items/{id}/comments", "page": "https://example.com/i/{id}", "items": "data", "children": "replies", "author": "user.name", "text": "body_html", "time": "created"}"#)
        let feed = try #require(try catalog["mine"]?.feed(argument: nil))
        #expect(feed.comments == CommentRules(url: "https://api.example.com/items/{id}/comments", page: "https://example.com/i/{id}", items: "data",
                                              children: "replies", author: "user.name", text: "body_html", time: "created"))
    }

    @Test(arguments: [
        (#"{"text": "t"}"#, "feeds.json: feed 'mine': field 'comments.url': missing"),
        (#"{"url": "ftp://x/{id}", "text": "t"}"#, "feeds.json: feed 'mine': field 'comments.url': expected an http(s) URL with {path} placeholders into the item, got 'ftp://x/{id}'"),
        (#"{"url": "https://x.example/{id}", "text": "t", "kids": "c"}"#, "feeds.json: feed 'mine': field 'comments.kids': unknown field (expected one of author, children, depth, expand, id, items, moderator, more, page, permalink, text, time, url)"),
        (#"{"url": "https://x.example/{id}", "text": "t", "children": "c", "depth": "d"}"#, "feeds.json: feed 'mine': field 'comments.depth': give either children (nested) or depth (a flat list), not both"),
    ] as [(String, String)])
    func aWrongCommentsFieldIsNamed(field: String, message: String) {
        #expect { try Self.parse(field) } throws: { "\($0)" == message }
    }
}
