import Foundation
import Testing

@Suite("riffle driven in a real terminal (tmux)", .serialized, .enabled(if: TmuxSession.isAvailable))
struct EndToEndTests {
    @Test func browseTheDemoNextPageAndQuit() throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])

        // Given the first page on screen
        let firstPage = session.waitUntil { session.screen().contains("page 1") && session.screen().contains("30 items") }
        #expect(firstPage, "first page never appeared:\n\(session.screen())")

        // When n, then q
        try session.send("n")
        let secondPage = session.waitUntil { session.screen().contains("page 2 · 60 items") }
        #expect(secondPage, "second page never appeared:\n\(session.screen())")
        try session.send("q")

        // Then riffle exits 0 and page 2 is on disk
        #expect(session.waitUntil { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")
        #expect(session.exitStatus() == 0)
        let pages = FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String } ?? []
        #expect(pages.contains { $0.hasSuffix("/feed_2.json") }, "files: \(pages)")
    }
}
