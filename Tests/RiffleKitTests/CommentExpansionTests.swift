import DemoServer
import Foundation
import Testing
@testable import RiffleKit

/// Reddit's recorded answers (Fixtures/reddit-more, from PRAW's cassettes).
enum RedditMore {
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/reddit-more"))
        return try Data(contentsOf: url)
    }

    static func json(_ name: String) throws -> JSONValue { try JSONParser.parse(data(name)) }

    /// The story the thread is about, as the reddit preset reads its listing item (`data`).
    static let item = Item(id: "t3_3hahrw", title: "Ba Dum Tsss", details: [], url: nil, createdAt: nil,
                           fields: ["id": "3hahrw", "name": "t3_3hahrw", "permalink": "/r/funny/comments/3hahrw/ba_dum_tsss/"])
}

@Suite("\"more\" stubs: Reddit's morechildren answers merged into the thread")
struct CommentExpansionTests {
    let rules: CommentRules

    init() throws { rules = try #require(try PresetAssets.catalog(environment: [:])["reddit"]?.comments) }

    func thread() throws -> CommentThread { try CommentThread(RedditMore.json("comments-3hahrw"), rules: rules) }

    /// Each comment as "depth id-or-stub".
    func outline(_ comments: some Sequence<CommentThread.Comment>) -> [String] {
        comments.map { "\($0.depth) " + ($0.more.map { "(\($0) more)" } ?? $0.id ?? "?") }
    }

    @Test func theThreadKeepsEachStubWithWhatExpandsIt() throws {
        let thread = try thread()
        #expect(outline(thread.comments.prefix(7)) == ["0 cu5pebp", "1 cu5sye5", "2 cu5tgzu", "3 (100 more)", "2 (14 more)", "1 (8 more)", "0 cu5oif1"])
        #expect(thread.comments[5].stub?.value(at: "data.children") == ["cu5tovd", "cu6dave", "cu5ujqr", "cu5tzum"])
        #expect(thread.parentIndex(of: 5) == 0 && thread.parentIndex(of: 3) == 2 && thread.parentIndex(of: 6) == nil)
        // Without expand rules a stub keeps no JSON.
        var plain = rules
        plain.expand = nil
        #expect(try CommentThread(RedditMore.json("comments-3hahrw"), rules: plain).comments[5].stub == nil)
    }

    @Test func theRequestNamesTheStubsRepliesAndTheStory() throws {
        let thread = try thread()
        let request = try rules.expansionRequest(for: 5, in: thread, of: RedditMore.item)
        #expect(request == .replies(try #require(URL(string:
            "https://www.reddit.com/api/morechildren.json?api_type=json&raw_json=1&link_id=t3_3hahrw&children=cu5tovd%2Ccu6dave%2Ccu5ujqr%2Ccu5tzum")),
            rest: nil))
        #expect(throws: RiffleError.validation(path: "comment 1", expected: "a \"more\" stub", actual: "a comment")) {
            try rules.expansionRequest(for: 0, in: thread, of: RedditMore.item)
        }
        var none = rules
        none.expand = nil
        #expect(throws: RiffleError.self) { try none.expansionRequest(for: 5, in: thread, of: RedditMore.item) }
    }

    @Test func repliesGoUnderTheirParentsInTheAnswersOrderAndTheStubIsGone() throws {
        let thread = try thread()
        let replies = try CommentThread.replies(in: RedditMore.json("morechildren-cu5pebp"), rules: rules, rest: nil)
        let merged = thread.replacing(stub: 5, with: replies)
        // The answer lists cu5tovd, its replies cu5u3kp and cu6brig, cu6dave, cu5tzum, its reply cu616jd, cu5ujqr.
        #expect(outline(merged.comments.prefix(13)) == [
            "0 cu5pebp", "1 cu5sye5", "2 cu5tgzu", "3 (100 more)", "2 (14 more)",
            "1 cu5tovd", "2 cu5u3kp", "2 cu6brig", "1 cu6dave", "1 cu5tzum", "2 cu616jd", "1 cu5ujqr",
            "0 cu5oif1",
        ])
        #expect(merged.comments.count == thread.comments.count - 1 + 7)
        #expect(merged.comments[0].descendants == 11, "the new replies count under their ancestor")
        #expect(merged.comments[9].author == "kosh56" && merged.comments[9].text.hasPrefix("It looks like he purposefully stepped"))
        #expect(merged.comments[5].author == "[deleted]")
    }

    @Test func aDeepAnswerNestsAndKeepsItsContinueThisThreadStubs() throws {
        let thread = try thread()
        let replies = try CommentThread.replies(in: RedditMore.json("morechildren-cu5tgzu"), rules: rules, rest: nil)
        let merged = thread.replacing(stub: 3, with: replies)
        #expect(outline(merged.comments[2...6]) == ["2 cu5tgzu", "3 cu5tlz5", "4 cu5tnfu", "5 cu5tt57", "6 cu5ui8o"])
        #expect(merged.comments.count == thread.comments.count - 1 + 96)
        // Each "continue this thread" stub hangs under the comment its parent_id names.
        let stubs = merged.comments.indices.filter { merged.comments[$0].more == 0 }
        #expect(stubs.map { index in merged.parentIndex(of: index).flatMap { merged.comments[$0].id } } == ["cu61zil", "cu5v5h7", "cu5uyz1"])
        // And the comments after the stub keep their place.
        #expect(outline(merged.comments[(3 + 96)...(3 + 97)]) == ["2 (14 more)", "1 (8 more)"])
    }

    @Test func aContinueThisThreadStubOpensItsParentsThread() throws {
        let thread = try thread()
        let deep = thread.replacing(stub: 3, with: try CommentThread.replies(in: RedditMore.json("morechildren-cu5tgzu"), rules: rules, rest: nil))
        let stub = try #require(deep.comments.indices.first { deep.comments[$0].more == 0 })
        let request = try rules.expansionRequest(for: stub, in: deep, of: RedditMore.item)
        #expect(request == .thread(try #require(URL(string: "https://www.reddit.com/comments/3hahrw/_/cu61zil.json?raw_json=1")), parent: "cu61zil"))
        let answer = try CommentThread(RedditMore.json("comments-3hahrw-cu61zil"), rules: rules)
        let merged = deep.replacing(stub: stub, with: try CommentThread.replies(of: "cu61zil", in: answer))
        #expect(merged.comments[stub].id == "cu620o8" && merged.comments[stub].author == "kgbanarchy")
        #expect(merged.comments[stub].depth == deep.comments[stub].depth)
        #expect(merged.comments.count == deep.comments.count)
        #expect(throws: RiffleError.validation(path: "$", expected: "comment nope and its replies", actual: "no such comment")) {
            try CommentThread.replies(of: "nope", in: answer)
        }
    }

    @Test func aStubOfMoreThanABatchAsksForTheFirstHundredAndLeavesTheRest() throws {
        let thread = try thread()
        let last = thread.comments.count - 1
        let all = try #require(thread.comments[last].stub?.value(at: "data.children")?.arrayValue).compactMap(\.stringValue)
        #expect(all.count == 156)
        guard case .replies(let url, let rest) = try rules.expansionRequest(for: last, in: thread, of: RedditMore.item) else {
            Issue.record("not a morechildren request")
            return
        }
        let asked = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "children" }?.value)
        #expect(asked.split(separator: ",").map(String.init) == Array(all.prefix(100)))
        let left = try #require(rest)
        #expect(left.value(at: "data.children")?.arrayValue?.compactMap(\.stringValue) == Array(all.dropFirst(100)))
        #expect(left.value(at: "data.count")?.doubleValue == 232)
        // The rest is a stub again, after the replies, at the stub's depth.
        let replies = try CommentThread.replies(in: RedditMore.json("morechildren-cu5pebp"), rules: rules, rest: rest)
        let merged = thread.replacing(stub: last, with: replies)
        #expect(merged.comments.last?.more == 232 && merged.comments.last?.depth == 0)
        #expect(merged.comments[last].id == "cu5tovd" && merged.comments[last].depth == 0)
    }

    @Test func aReplyWhoseParentIsNotInTheAnswerTakesTheStubsPlaceAndHostileTextIsSanitised() throws {
        let answer = try JSONParser.parse(Data(#"""
        {"json": {"errors": [], "data": {"things": [
          {"kind": "t1", "data": {"id": "b", "parent_id": "t1_a", "author": "x\u001b[2Jy", "body": "two\u001b]52;c;aGk=\u0007 lines"}},
          {"kind": "t1", "data": {"id": "c", "parent_id": "t1_elsewhere", "author": "z", "body": "orphan"}},
          {"kind": "t1", "data": {"id": "d", "parent_id": "t1_b", "author": "w", "body": "under b"}}
        ]}}}
        """#.utf8))
        let replies = try CommentThread.replies(in: answer, rules: rules, rest: nil)
        #expect(replies.comments.map(\.depth) == [0, 1, 0])
        #expect(replies.comments.map(\.id) == ["b", "d", "c"])
        for comment in replies.comments {
            #expect(!(comment.author ?? "").unicodeScalars.contains { $0.value < 0x20 }, "\(comment.author ?? "")")
            #expect(!comment.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(comment.text)")
        }
        #expect(throws: RiffleError.validation(path: "$.json.data.things", expected: "an array of replies", actual: "nothing")) {
            try CommentThread.replies(in: JSONParser.parse(Data(#"{"json": {"errors": [["RATELIMIT", "slow down"]]}}"#.utf8)), rules: rules, rest: nil)
        }
    }
}

@Suite("\"more\" stubs expanded through the feed's client and cache, against 127.0.0.1", .serialized)
struct CommentExpansionServerTests {
    /// The reddit preset's comments with its URLs on `server`.
    static func feed(_ server: HTTPServer) throws -> Feed {
        let base = server.baseURL.absoluteString
        let catalog = try FeedCatalog.parse(Data(#"""
        {"feeds": {"reddit-saved": {
          "url": "\#(base)/r/funny/hot.json", "pagination": {"style": "cursor", "path": "data.after", "param": "after"},
          "items": "data.children", "fields": {"title": "title", "link": "url", "id": "name", "time": "created_utc"},
          "comments": {
            "url": "\#(base)/comments/{id}.json?raw_json=1", "items": "1.data.children", "children": "data.replies.data.children",
            "author": "data.author", "text": "data.body", "time": "data.created_utc", "more": "data.count", "id": "data.id",
            "expand": {"url": "\#(base)/api/morechildren.json?api_type=json&link_id=t3_{id}&children={stub.data.children}",
                       "thread": "\#(base)/comments/{id}/_/{parent}.json", "items": "json.data.things", "parent": "data.parent_id"}
          }
        }}}
        """#.utf8), file: "feeds.json")
        return try #require(try catalog["reddit-saved"]?.feed(argument: nil))
    }

    static func server() throws -> HTTPServer {
        let thread = try RedditMore.data("comments-3hahrw"), pebp = try RedditMore.data("morechildren-cu5pebp")
        let tgzu = try RedditMore.data("morechildren-cu5tgzu"), zil = try RedditMore.data("comments-3hahrw-cu61zil")
        return try HTTPServer { request in
            switch request.path {
            case "/comments/3hahrw.json": .json(thread)
            case "/comments/3hahrw/_/cu61zil.json": .json(zil)
            case "/api/morechildren.json" where request.query("link_id") == "t3_3hahrw":
                switch request.query("children") {
                case "cu5tovd,cu6dave,cu5ujqr,cu5tzum": .json(pebp)
                case "cu638nc,cu5tlz5,cu5tzj5": .json(tgzu)
                default: .text("no such children", status: 404)
                }
            default: .text("not found", status: 404)
            }
        }
    }

    @Test func aStubIsFetchedOnceMergedAndASecondExpansionComesFromTheCache() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-more-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = PageLoader(feed: try Self.feed(server), cacheDirectory: directory, transport: CurlTransport())

        let thread = try #require(try await loader.comments(for: RedditMore.item))
        #expect(thread.comments[5].more == 8)
        let before = server.requestCount
        let expanded = try await loader.expand(5, in: thread, for: RedditMore.item)
        #expect(expanded.comments[5...11].map(\.id) == ["cu5tovd", "cu5u3kp", "cu6brig", "cu6dave", "cu5tzum", "cu616jd", "cu5ujqr"])
        #expect(server.requestCount == before + 1)

        // The same stub again (the thread reopened from the cache): no request within freshness.
        let again = try await loader.expand(5, in: thread, for: RedditMore.item)
        #expect(again == expanded)
        #expect(server.requestCount == before + 1)

        // A "continue this thread" stub goes through its parent's thread.
        let deep = try await loader.expand(3, in: thread, for: RedditMore.item)
        let stub = try #require(deep.comments.indices.first { deep.comments[$0].more == 0 })
        let continued = try await loader.expand(stub, in: deep, for: RedditMore.item)
        #expect(continued.comments[stub].id == "cu620o8")
        #expect(server.requestCount == before + 3)
    }

    @Test func aThreadSaysWhetherTheNetworkOrTheCacheAnswered() async throws {
        // The browser's "offline" ends when the network answers, comments too: the thread says which.
        let server = try Self.server()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-more-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = PageLoader(feed: try Self.feed(server), cacheDirectory: directory, transport: CurlTransport())
        #expect(try await loader.comments(for: RedditMore.item)?.source == .network)
        #expect(try await loader.comments(for: RedditMore.item)?.source == .cache)
        #expect(try await loader.comments(for: RedditMore.item, policy: .reloadIgnoringCache)?.source == .network)
    }

    @Test func aFailedExpansionSaysWhatFailedAndLeavesTheThread() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-more-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = PageLoader(feed: try Self.feed(server), cacheDirectory: directory, transport: CurlTransport())
        let thread = try #require(try await loader.comments(for: RedditMore.item))
        // The stub "14 more" is not served: a 404.
        await #expect { try await loader.expand(4, in: thread, for: RedditMore.item) } throws: { error in
            guard case FeedError.request(.httpStatus(let code, _)) = error else { return false }
            return code == 404
        }
    }
}

@Suite("The comments.expand field of a feeds file")
struct CommentExpansionFieldTests {
    @Test(arguments: [
        (#"{"url": "https://x.example/{id}", "text": "t", "more": "n", "expand": {"parent": "p"}}"#,
         "feeds.json: feed 'mine': field 'comments.expand.url': missing"),
        (#"{"url": "https://x.example/{id}", "text": "t", "more": "n", "expand": {"url": "https://x.example/m?c={stub.c}"}}"#,
         "feeds.json: feed 'mine': field 'comments.expand.parent': missing"),
        (#"{"url": "https://x.example/{id}", "text": "t", "more": "n", "expand": {"url": "file:///m", "parent": "p"}}"#,
         "feeds.json: feed 'mine': field 'comments.expand.url': expected an http(s) URL with {path} placeholders (the stub's {stub.PATH}, {parent}), got 'file:///m'"),
        (#"{"url": "https://x.example/{id}", "text": "t", "more": "n", "expand": {"url": "https://x.example/m", "parent": "p", "batch": 0}}"#,
         "feeds.json: feed 'mine': field 'comments.expand.batch': expected a whole number ≥ 1, got 0"),
        (#"{"url": "https://x.example/{id}", "text": "t", "expand": {"url": "https://x.example/m", "parent": "p"}}"#,
         "feeds.json: feed 'mine': field 'comments.expand': needs comments.more, the path that tells a stub"),
    ] as [(String, String)])
    func aWrongExpandFieldIsNamed(field: String, message: String) {
        #expect { try CommentRulesFieldTests.parse(field) } throws: { "\($0)" == message }
    }

    @Test func theRedditPresetSaysHowToExpandStubs() throws {
        let rules = try #require(try PresetAssets.catalog(environment: [:])["reddit"]?.comments?.expand)
        #expect(rules.items == "json.data.things" && rules.parent == "data.parent_id" && rules.batch == 100)
        #expect(rules.url.hasPrefix("https://www.reddit.com/api/morechildren.json?") && rules.url.contains("children={stub.data.children}"))
    }
}
