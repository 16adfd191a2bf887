import DemoServer
import Foundation
import Testing

/// The field picker in a real terminal: a title picked for a feed opened by URL holds after a
/// restart, and "automatic" undoes it.
@Suite("field picker, in a real terminal (tmux)", .serialized)
struct FieldPickerEndToEndTests {
    static let page = """
    [{"id": 1, "name": "cats-doors", "headline": {"main": "Cats learn to open doors"}, "web": "https://example.com/a/1"},
     {"id": 2, "name": "dogs-boats", "headline": {"main": "Dogs sail the harbour at dawn"}, "web": "https://example.com/a/2"},
     {"id": 3, "name": "owls-night", "headline": {"main": "Owls keep the night shift"}, "web": "https://example.com/a/3"}]
    """

    /// Moves down in the path list until the status bar says `path` is selected.
    static func select(_ path: String, in session: TmuxSession) async throws -> Bool {
        for _ in 0..<40 {
            if DailyEndToEndTests.statusBar(session).contains("title ← \(path) ") { return true }
            let before = DailyEndToEndTests.statusBar(session)
            try session.send("j")
            _ = await session.waitFor(timeout: 5) { DailyEndToEndTests.statusBar(session) != before }
        }
        return false
    }

    @Test func aPickedTitleHoldsAfterARestartAndAutomaticUndoesIt() async throws {
        let home = try DailyEndToEndTests.Home()
        let server = try HTTPServer { request in .json(request.target.hasSuffix("page=1") ? Self.page : "[]") }
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/items?page={page}"
        let feedsFile = home.config.appending(path: "riffle/feeds.json")

        // Given the feed opened by URL: the headline a level down is the title
        var session = try home.session([url], width: 120, height: 30)
        #expect(await session.waitFor { session.screen().contains("Dogs sail the harbour at dawn") }, "\(session.screen())")
        // When e, Enter on title, the row of `name`, Enter
        try session.send("e")
        #expect(await session.waitFor { session.screen().contains("this item's fields") && session.screen().contains("`headline.main` (") },
                "\(session.screen())")
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("title: which path?") }, "\(session.screen())")
        #expect(try await Self.select("name", in: session), "\(session.screen())")
        try session.send("Enter")
        // Then the list reads the slugs at once, and says where the pick was saved
        #expect(await session.waitFor { session.screen().contains("dogs-boats") && !session.screen().contains("Dogs sail") }, "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
        let saved = try String(contentsOf: feedsFile, encoding: .utf8)
        #expect(saved.contains("\"url\": \"\(url)\"") && saved.contains("\"title\": \"name\""), "\(saved)")

        // When riffle is started again with the same URL, then the pick holds
        session = try home.session([url], width: 120, height: 30)
        #expect(await session.waitFor { session.screen().contains("owls-night") }, "\(session.screen())")
        #expect(!session.screen().contains("Owls keep"))
        // When automatic is picked for the title
        try session.send("e")
        #expect(await session.waitFor { session.screen().contains("`name`: the feed's `fields`") }, "\(session.screen())")
        try session.send("Enter")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("title ← name ") }, "\(session.screen())")
        try session.send("g")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("title ← automatic") }, "\(session.screen())")
        try session.send("Enter")
        // Then the headlines are back, and the file no longer pins the title
        #expect(await session.waitFor { session.screen().contains("Owls keep the night shift") }, "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
        let undone = try String(contentsOf: feedsFile, encoding: .utf8)
        #expect(!undone.contains("\"title\"") && undone.contains("\"url\": \"\(url)\""), "\(undone)")
    }
}
