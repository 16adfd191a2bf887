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
}
