import DemoServer
import Foundation
import Synchronization
import Testing

/// The comment view driven in tmux against saved HN answers on 127.0.0.1: the story first, the
/// links and labels, and a comment that arrives between two visits marked new.
@Suite("comments made for reading, in a real terminal (tmux)", .serialized)
struct CommentsEndToEndTests {
    /// The saved HN item; with `late`, one more top-level comment, written after all the others.
    /// Whether the server answers with the late comment.
    final class Switch: Sendable {
        let on = Mutex(false)
    }

    static func hackerNewsServer(late: Switch) throws -> HTTPServer {
        let search = try DailyEndToEndTests.fixture("hn-algolia.json"), saved = try DailyEndToEndTests.fixture("hn-algolia-item.json")
        var grown = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        var children = try #require(grown["children"] as? [[String: Any]])
        children.append(["id": 99_000_001, "author": "newcomer", "text": "<p>A late reply, written after the first visit.</p>",
                         "created_at_i": 1_900_000_000, "children": [], "type": "comment"])
        grown["children"] = children
        let later = try JSONSerialization.data(withJSONObject: grown)
        return try HTTPServer { request in
            switch request.path {
            case "/api/v1/search_by_date": request.query("page") == "0" ? .json(search) : .json(#"{"hits": []}"#)
            case "/api/v1/items/42280701": .json(late.on.withLock { $0 } ? later : saved)
            default: .text("not found", status: 404)
            }
        }
    }

    @Test func aCommentWrittenSinceTheLastVisitIsMarkedCountedAndJumpedTo() async throws {
        let home = try DailyEndToEndTests.Home()
        let late = Switch()
        let server = try Self.hackerNewsServer(late: late)
        defer { server.stop() }
        try home.write("feeds.json", DailyEndToEndTests.hackerNewsFeed(server))

        // Given the thread read once: nothing is new on a first visit
        var session = try home.session(["hn-saved"], width: 110, height: 40)
        #expect(await session.waitFor { session.screen().contains("Show HN: Riffle") }, "\(session.screen())")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("It scores every array") }, "\(session.screen())")
        #expect(!session.screen().contains("new comment"), "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)

        // When a comment arrives and the thread is read again (r fetches it past the cache)
        late.on.withLock { $0 = true }
        session = try home.session(["hn-saved"], width: 110, height: 40)
        #expect(await session.waitFor { session.screen().contains("Show HN: Riffle") }, "\(session.screen())")
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("It scores every array") }, "\(session.screen())")
        try session.send("r")
        // Then it is counted above the thread and in the status bar
        #expect(await session.waitFor { session.screen().contains("1 new comment") }, "\(session.screen())")
        #expect(DailyEndToEndTests.statusBar(session).contains("1 new"), "\(session.screen())")
        // And u jumps to it, marked new
        try session.send("u")
        #expect(await session.waitFor { session.screen().contains("newcomer new") && session.screen().contains("A late reply") },
                "\(session.screen())")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("comment 9/9") }, "\(session.screen())")
        // And ] past the last top-level comment stays, [ goes back up a thread
        try session.send("[")
        #expect(await session.waitFor { !DailyEndToEndTests.statusBar(session).contains("comment 9/9") }, "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }
}
