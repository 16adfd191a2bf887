import DemoServer
import Foundation
import Synchronization
import Testing

/// "new" counted by item id when a newest-first feed gains items while several of its pages are loaded.
@Suite("riffle counts new items by id across loaded pages, in a real terminal (tmux)", .serialized)
struct NewItemsEndToEndTests {
    typealias Home = DailyEndToEndTests.Home

    /// A newest-first feed, five items a page: `fresh N` (newest first) above `story 1` to `story 15`
    /// (three pages, then an empty one, until something arrives).
    final class GrowingFeed: Sendable {
        typealias Count = SharedCount
        /// How many items arrived on top of the stories.
        let fresh = Count()
        let server: HTTPServer

        init() throws {
            let fresh = fresh
            server = try HTTPServer { request in
                let parts = request.path.split(separator: "/")
                guard parts.count == 2, parts[0] == "f", let number = Int(parts[1]), number >= 1 else { return .text("no such page", status: 404) }
                let count = fresh.value.withLock { $0 }
                let titles = (0..<count).map { "fresh \(count - $0)" } + (1...15).map { "story \($0)" }
                let slice = titles.dropFirst((number - 1) * 5).prefix(5)
                return .json(DailyEndToEndTests.page(Array(slice)))
            }
        }

        var url: String { server.baseURL.absoluteString + "/f/{page}" }
    }

    /// The rows of the list that hold `title` exactly (not "story 10" for "story 1").
    static func rows(_ screen: String, _ title: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { $0.hasPrefix(" \(title) ") || $0.hasPrefix(" \(title)\n") || $0 == " \(title)" }
    }

    @Test func threeArrivingWhilePagesOneToThreeAreLoadedAreThreeNewAndNothingIsLost() async throws {
        let home = try Home()
        let feed = try GrowingFeed()
        defer { feed.server.stop() }

        // Given pages 1-3 loaded (the fourth is empty: the end of the feed) and everything marked seen (n n M)
        let session = try home.session([feed.url], width: 100, height: 30)
        #expect(await session.waitFor { session.screen().contains("story 5") }, "\(session.screen())")
        try session.send("n")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("page 2") }, "\(session.screen())")
        try session.send("n")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("page 3") && session.screen().contains("end of feed") },
                "\(session.screen())")
        try session.send("M")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("nothing new") }, "\(session.screen())")

        // When three items arrive at the top and R reloads every loaded page
        feed.fresh.set(3)
        try session.send("R")
        // Then it says 3 new items, not 6, and three are unseen
        #expect(await session.waitFor { session.screen().contains("3 new items") }, "\(session.screen())")
        #expect(!session.screen().contains("6 new items"), "\(session.screen())")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("3 new") }, "\(session.screen())")
        // And every story is listed once, none marked new (they were seen), the fresh ones marked new
        // (all of it in view: the selection, on page 3, never rested on a fresh one)
        #expect(await session.waitFor { session.screen().contains("fresh 3") }, "\(session.screen())")
        let screen = session.screen()
        for n in 1...15 {
            let rows = Self.rows(screen, "story \(n)")
            #expect(rows.count == 1, "story \(n) is listed \(rows.count) times:\n\(screen)")
            #expect(rows.allSatisfy { !$0.contains(" new ") }, "story \(n) carries new:\n\(screen)")
        }
        for n in 1...3 { #expect(Self.rows(screen, "fresh \(n)").first?.contains(" new ") == true, "\(screen)") }

        // When three more arrive and only page 1 is reloaded (g r, then G at once, so nothing on page 1 rests selected)
        feed.fresh.set(6)
        try session.send("g", "r", "G")
        #expect(await session.waitFor { session.screen().contains("fresh 6") }, "\(session.screen())")
        // Then the items pushed off page 1 are still listed, once: nothing vanished
        let after = session.screen()
        for title in ["fresh 1", "fresh 2", "fresh 3", "story 1", "story 2"] {
            #expect(Self.rows(after, title).count == 1, "\(title) vanished or doubled:\n\(after)")
        }
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("6 new") }, "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
    }
}
