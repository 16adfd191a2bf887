import DemoServer
import Foundation
import Testing

/// Renaming and removing feeds in the feed list (`F`), in a real terminal: a feed of the file is
/// renamed and removed there, one opened before is forgotten.
@Suite("feed list rename and remove, in a real terminal (tmux)", .serialized)
struct FeedListEditEndToEndTests {
    @Test func renameAndRemoveInTheFeedList() async throws {
        let home = try DailyEndToEndTests.Home()
        let server = try DailyEndToEndTests.server(["p": [["alpha one", "bravo two"]], "q": [["quebec"]]])
        defer { server.stop() }
        let opened = server.baseURL.absoluteString + "/q/{page}"
        let feedsFile = home.config.appending(path: "riffle/feeds.json")
        try home.write("feeds.json", "{\n  \"feeds\": {\n    \"mine\": {\"url\": \"\(server.baseURL.absoluteString)/p/{page}\"},\n    \"news\": \"hn\"\n  }\n}\n")

        // Given a URL opened once, so it is listed as opened before
        var session = try home.session([opened])
        #expect(await session.waitFor { session.screen().contains("quebec") }, "\(session.screen())")
        try await DailyEndToEndTests.quit(session)

        // When riffle starts on the feed list and e renames mine to ours
        session = try home.session([], width: 120, height: 24)
        #expect(await session.waitFor { session.screen().contains(" mine ") && session.screen().contains("opened before") }, "\(session.screen())")
        try session.send("e")
        #expect(await session.waitFor { session.screen().contains("rename mine to: mine") }, "\(session.screen())")
        // (Ctrl-U clears what is before the cursor, as in readline; Ctrl-A and Ctrl-E move it)
        try session.send("C-u", "u", "r", "s")
        #expect(await session.waitFor { session.screen().contains("rename mine to: urs") }, "\(session.screen())")
        try session.send("C-a", "o", "C-e", "Enter")
        // Then the list and the file say ours, the rest of the file as it was
        #expect(await session.waitFor { session.screen().contains(" ours ") && !session.screen().contains(" mine ") }, "\(session.screen())")
        #expect(try String(contentsOf: feedsFile, encoding: .utf8)
                == "{\n  \"feeds\": {\n    \"ours\": {\"url\": \"\(server.baseURL.absoluteString)/p/{page}\"},\n    \"news\": \"hn\"\n  }\n}\n")
        // When d on ours, n keeps it; d and y remove it
        try session.send("g", "d")
        #expect(await session.waitFor { session.screen().contains("remove ours from feeds.json? y/n") }, "\(session.screen())")
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("kept ours") }, "\(session.screen())")
        try session.send("d")
        #expect(await session.waitFor { session.screen().contains("remove ours from feeds.json? y/n") }, "\(session.screen())")
        try session.send("y")
        #expect(await session.waitFor { !session.screen().contains(" ours ") }, "\(session.screen())")
        #expect(try String(contentsOf: feedsFile, encoding: .utf8) == "{\n  \"feeds\": {\n    \"news\": \"hn\"\n  }\n}\n")
        // When the feed opened before (above the demo and "saved", last) is removed, it is forgotten
        try session.send("G", "k", "k", "d")
        #expect(await session.waitFor { session.screen().contains("(opened before)? y/n") }, "\(session.screen())")
        try session.send("y")
        #expect(await session.waitFor { !session.screen().contains("opened before") }, "\(session.screen())")
        try await DailyEndToEndTests.quit(session)
    }
}
