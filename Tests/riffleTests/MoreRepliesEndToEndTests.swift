import DemoServer
import Foundation
import Synchronization
import Testing

/// Reddit's and Lobsters' comment shapes in a real terminal (tmux), served from 127.0.0.1: a Reddit
/// thread whose "… 8 more replies" stub loads with Enter (PRAW's recorded answers), and Lobsters'
/// flat list with depths drawn as a tree.
@Suite("\"more replies\" and Lobsters' comments, in a real terminal (tmux)", .serialized)
struct MoreRepliesEndToEndTests {
    static func redditFixture(_ name: String) throws -> Data { try DailyEndToEndTests.fixture("reddit-more/\(name).json") }

    /// The thread (also the feed's page: its first listing holds the story), and the morechildren
    /// answer for the stub under cu5pebp, held until `release` is signalled (at most 20 s) so the
    /// test sees the row while it loads. `morechildren` counts the requests for it.
    static func redditServer(release: DispatchSemaphore, morechildren: SharedCount) throws -> HTTPServer {
        let thread = try redditFixture("comments-3hahrw"), answer = try redditFixture("morechildren-cu5pebp")
        return try HTTPServer { request in
            switch request.path {
            case "/comments/3hahrw.json": return .json(thread)
            case "/api/morechildren.json" where request.query("link_id") == "t3_3hahrw" && request.query("children") == "cu5tovd,cu6dave,cu5ujqr,cu5tzum":
                morechildren.value.withLock { $0 += 1 }
                _ = release.wait(timeout: .now() + 20)
                return .json(answer)
            default: return .text("not found", status: 404)
            }
        }
    }

    static func redditFeed(_ server: HTTPServer) -> String {
        let base = server.baseURL.absoluteString
        return #"""
        {"feeds": {"reddit-saved": {
          "description": "a Reddit thread, saved answers on 127.0.0.1",
          "url": "\#(base)/comments/3hahrw.json", "pagination": {"style": "cursor", "path": "0.data.after", "param": "after"},
          "items": "0.data.children", "fields": {"title": "title", "link": "url", "id": "name", "time": "created_utc"},
          "comments": {
            "url": "\#(base)/comments/{id}.json", "items": "1.data.children", "children": "data.replies.data.children",
            "author": "data.author", "text": "data.body", "time": "data.created_utc", "more": "data.count", "id": "data.id",
            "expand": {"url": "\#(base)/api/morechildren.json?api_type=json&link_id=t3_{id}&children={stub.data.children}",
                       "thread": "\#(base)/comments/{id}/_/{parent}.json", "items": "json.data.things", "parent": "data.parent_id"}
          }
        }}}
        """#
    }

    @Test func enterOnAMoreRepliesStubLoadsThemInPlaceAndASecondTimeFromTheCache() async throws {
        let home = try DailyEndToEndTests.Home()
        let release = DispatchSemaphore(value: 0), morechildren = SharedCount()
        let server = try Self.redditServer(release: release, morechildren: morechildren)
        defer {
            release.signal()
            server.stop()
        }
        try home.write("feeds.json", Self.redditFeed(server))

        // Given the thread's comments, the stub "8 more replies" under johnnwho's comment (the 6th row)
        var session = try home.session(["reddit-saved"], width: 110, height: 45)
        #expect(await session.waitFor { session.screen().contains("Ba Dum Tsss") }, "\(session.screen())")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("johnnwho") && session.screen().contains("8 more replies (Enter loads them)") },
                "\(session.screen())")
        for _ in 0..<5 { try session.send("j") }
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("comment 6/21") }, "\(session.screen())")

        // When Enter is pressed on it, the row says the replies are loading until they come
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("loading 8 more replies…") }, "\(session.screen())")
        release.signal()

        // Then the replies are in its place, at their depths, with the cursor on the first of them
        #expect(await session.waitFor { session.screen().contains("dahliamma") && session.screen().contains("kosh56") }, "\(session.screen())")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("comment 6/27") }, "\(session.screen())")
        let screen = session.screen()
        #expect(!screen.contains("8 more replies"), "\(screen)")
        #expect(screen.contains("│ │ dahliamma"), "a reply to a reply of johnnwho: \(screen)")
        #expect(screen.contains("│ kosh56"), "a reply to johnnwho: \(screen)")
        #expect(morechildren.value.withLock { $0 } == 1)
        try session.send("q")
        try await DailyEndToEndTests.quit(session)

        // And the same stub a second time (the thread reopened) comes from the cache: no request
        release.signal()
        session = try home.session(["reddit-saved"], width: 110, height: 45)
        #expect(await session.waitFor { session.screen().contains("Ba Dum Tsss") }, "\(session.screen())")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("8 more replies (Enter loads them)") }, "\(session.screen())")
        for _ in 0..<5 { try session.send("j") }
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("comment 6/21") }, "\(session.screen())")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("dahliamma") }, "\(session.screen())")
        #expect(morechildren.value.withLock { $0 } == 1)
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }

    @Test func lobstersFlatListIsDrawnAsATreeByDepth() async throws {
        let home = try DailyEndToEndTests.Home()
        let page = try DailyEndToEndTests.fixture("lobsters.json"), story = try DailyEndToEndTests.fixture("lobsters-story.json")
        let server = try HTTPServer { request in
            switch request.path {
            case "/page/1.json": .json(page)
            case "/s/3xwz0a.json": .json(story)
            case let path where path.hasPrefix("/page/"): .json("[]")
            default: .text("not found", status: 404)
            }
        }
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        try home.write("feeds.json", #"""
        {"feeds": {"lobsters-saved": {
          "url": "\#(base)/page/{page}.json", "pagination": {"style": "page", "first": 1},
          "fields": {"title": "title", "link": "url", "id": "short_id", "time": "created_at"},
          "comments": {"url": "\#(base)/s/{short_id}.json", "items": "comments", "depth": "depth", "author": "commenting_user",
                       "text": "comment", "time": "created_at", "id": "short_id"}
        }}}
        """#)

        let session = try home.session(["lobsters-saved"], width: 110, height: 40)
        #expect(await session.waitFor { session.screen().contains("What is your favourite JSON tool") }, "\(session.screen())")
        try session.send("j")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("gron is clever") }, "\(session.screen())")
        let lines = session.screen().split(separator: "\n").map(String.init)
        // Depth 0, 1, 2, then 0 and 1 again: one guide a level.
        #expect(lines.contains { $0.contains("jcs") && !$0.contains("│") }, "\(lines)")
        #expect(lines.contains { $0.contains("│ alice_b") && !$0.contains("│ │") }, "\(lines)")
        #expect(lines.contains { $0.contains("│ │ jcs") }, "\(lines)")
        #expect(lines.contains { $0.contains("│ bob_k") && !$0.contains("│ │") }, "\(lines)")
        #expect(DailyEndToEndTests.statusBar(session).contains("5 comments"), "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }
}
