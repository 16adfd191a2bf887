import DemoServer
import Foundation
import Testing

/// Seen when opened (or moved past, with `seen: scroll`), `u` to the next unseen, `f` and the saved list.
@Suite("riffle: seen a reader controls, next unseen, saved items, in a real terminal (tmux)", .serialized)
struct SeenAndSavedEndToEndTests {
    typealias Home = DailyEndToEndTests.Home

    static func statusBar(_ session: TmuxSession) -> String { DailyEndToEndTests.statusBar(session) }

    @Test func openedIsSeenUFindsTheNextUnseenAndSavedItemsListOffline() async throws {
        let home = try Home()
        let server = try DailyEndToEndTests.server(["p": [["alpha one", "bravo two", "charlie three", "delta four", "echo five"]]])
        let url = server.baseURL.absoluteString + "/p/{page}"

        // Given the page listed, nothing seen
        var session = try home.session([url])
        #expect(await session.waitFor { session.screen().contains("echo five") && Self.statusBar(session).contains("5 new") }, "\(session.screen())")
        // When the first is opened and left, it is seen; moving past the next two is not seeing them
        try session.send("Enter")
        #expect(await session.waitFor { !session.screen().contains("bravo two") }, "\(session.screen())")
        try session.send("Escape")
        #expect(await session.waitFor { Self.statusBar(session).contains("4 new") }, "\(session.screen())")
        try session.send("j", "j", "m", "m")
        // (m twice: charlie seen, then unseen again)
        #expect(await session.waitFor { Self.statusBar(session).contains("item 3/5") }, "\(session.screen())")
        try session.send("g", "j", "Enter", "Escape", "g")
        #expect(await session.waitFor { Self.statusBar(session).contains("3 new") && Self.statusBar(session).contains("item 1/5") }, "\(session.screen())")
        // And u goes to the first unseen below: charlie (bravo was opened)
        try session.send("u")
        #expect(await session.waitFor { Self.statusBar(session).contains("item 3/5") }, "\(session.screen())")
        // When f saves it, its row says so
        try session.send("f")
        #expect(await session.waitFor {
            session.screen().split(separator: "\n").contains { $0.contains("charlie three") && $0.contains("saved") }
        }, "\(session.screen())")

        // When the server is gone and the feed list's "saved" is opened
        server.stop()
        try session.send("F")
        #expect(await session.waitFor { session.screen().contains("1 saved") }, "\(session.screen())")
        try session.send("G", "Enter")
        // Then charlie is listed from the reading log, with the feed's name
        #expect(await session.waitFor { session.screen().contains("charlie three") && Self.statusBar(session).contains("every feed, offline") },
                "\(session.screen())")
        // And f there unsaves it
        try session.send("f")
        #expect(await session.waitFor { session.screen().contains("nothing saved") }, "\(session.screen())")
        // (q: back to the feed list, to the feed, then quit)
        try session.send("q", "q", "q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "\(session.screen())")

        // Given seen: scroll in config.json, a new run (its page from disk) moves down past three items
        try home.write("config.json", #"{"seen": "scroll"}"#)
        session = try home.session([url])
        #expect(await session.waitFor { Self.statusBar(session).contains("3 new") }, "\(session.screen())")
        try session.send("j", "j", "j")
        // Then charlie, the one unseen among them, is now seen
        #expect(await session.waitFor { Self.statusBar(session).contains("2 new") && Self.statusBar(session).contains("item 4/5") },
                "\(session.screen())")
        // And made unseen with m, it stays unseen when passed again; delta, passed, is seen
        try session.send("k", "m")
        #expect(await session.waitFor { Self.statusBar(session).contains("3 new") && Self.statusBar(session).contains("item 3/5") },
                "\(session.screen())")
        try session.send("j", "j")
        #expect(await session.waitFor { Self.statusBar(session).contains("2 new") && Self.statusBar(session).contains("item 5/5") },
                "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
    }
}
