import DemoServer
import Foundation
import Testing

@Suite("riffle draws whole graphemes in a real terminal (tmux)", .serialized)
struct GraphemeEndToEndTests {
    /// Two flags (four regional indicators), and an e with a combining acute accent.
    static let feed = #"[{"id": 1, "title": "A🇺🇦🇪🇺B two flags", "author": "ann"}, {"id": 2, "title": "cafe\u0301 done", "author": "bob"}]"#

    @Test func flagsAndAccentsKeepEveryCodePointAndTheirColumns() async throws {
        let server = try HTTPServer { _ in .json(Self.feed) }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, server.baseURL.absoluteString + "/p/{page}"],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        // Given the list on screen: both flags whole, and the author where four columns of flags put it
        #expect(await session.waitFor { session.screen().contains("A🇺🇦🇪🇺B two flags  ann") }, "\(session.screen())")
        #expect(session.screen().contains("cafe\u{301} done  bob"))
        // When the selection moves (both rows are drawn again), they stay whole
        try session.send("j")
        #expect(await session.waitFor { session.screen().contains("page 1") })
        try session.send("k")
        #expect(await session.waitFor { session.screen().contains("A🇺🇦🇪🇺B two flags  ann") }, "\(session.screen())")
        // And in the item's view, and its fields
        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains(" A🇺🇦🇪🇺B two flags\n") }, "\(session.screen())")
        try session.send("v")
        #expect(await session.waitFor { session.screen().contains("title: A🇺🇦🇪🇺B two flags") }, "\(session.screen())")
        try session.send("q")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
        #expect(session.exitStatus() == 0)
    }

    /// A box drawn over half a flag (the message log's border, column 2, over a title that starts with
    /// two flags at column 1): the other half goes too. ncurses held blanks where the flag was
    /// written around it, so the blank riffle drew there never reached the terminal and half a flag
    /// stayed beside the border.
    @Test func aBoxOverHalfAFlagLeavesNoHalfBehind() async throws {
        let feed = #"[{"id": 1, "title": "🇺🇦🇪🇺 flags first", "author": "ann"}, {"id": 2, "title": "plain", "author": "bob"}]"#
        let server = try HTTPServer { _ in .json(feed) }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, server.baseURL.absoluteString + "/p/{page}"],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        #expect(await session.waitFor { session.screen().contains("🇺🇦🇪🇺 flags first  ann") }, "\(session.screen())")
        try session.send("L")
        #expect(await session.waitFor { session.screen().contains("messages") }, "\(session.screen())")
        // The box's top border crosses the first row at column 2, the second half of the first flag.
        let rows = session.screen().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count > 2 && rows[1].contains("messages"), "\(session.screen())")
        // No regional indicator is left alone on any row: flags come whole or not at all.
        for row in rows {
            #expect(row.unicodeScalars.filter { (0x1F1E6...0x1F1FF).contains($0.value) }.count % 2 == 0, "\(row)")
        }
        try session.send("Escape")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
        #expect(session.exitStatus() == 0)
    }
}
