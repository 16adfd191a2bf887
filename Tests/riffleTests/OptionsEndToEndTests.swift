import DemoServer
import Foundation
import Testing

@Suite("riffle's options in tmux: --max-age offline, cache clear asking", .serialized)
struct OptionsEndToEndTests {
    /// `--max-age` in the browser keeps the offline fallback: the server gone, the stored page shows.
    @Test func maxAgeStillShowsTheStoredPageWhenTheServerIsDown() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        #expect(try await fixture.dump(["--pages", "1"]).status == 0)
        fixture.server.stop()
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--max-age", "0", "--cache-dir", fixture.cache.path, fixture.template],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        let title = String(fixture.server.feed.items[0].title.prefix(12))
        let shown = await session.waitFor { session.screen().contains("item 1/30") && session.screen().contains("offline") }
        #expect(shown, "the stored page, marked offline:\n\(session.screen())")
        #expect(session.screen().contains(title), "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
        #expect(session.exitStatus() == 0)
    }

    /// On a terminal, clearing everything asks first; "n" keeps the pages, "y" removes them.
    @Test func clearingEverythingAsksOnATerminal() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        #expect(try await fixture.dump(["--pages", "1-2"]).status == 0)
        let command = [RiffleBinary.url.path, "cache", "clear", "--cache-dir", fixture.cache.path]

        let declined = try TmuxSession(command: command, environment: ["LANG": "C.UTF-8"])
        // The question may wrap: wrapped lines are read as one.
        let asked = await declined.waitFor {
            declined.unwrappedScreen().contains("(1 feed, 2 pages, ") && declined.unwrappedScreen().contains("? [y/N]")
        }
        #expect(asked, "\(declined.screen())")
        try declined.send("n", "Enter")
        #expect(await declined.waitFor { declined.exitStatus() != nil })
        #expect(declined.screen().contains("nothing removed"))
        #expect(FileManager.default.fileExists(atPath: try fixture.feedFolder.path))

        let accepted = try TmuxSession(command: command, environment: ["LANG": "C.UTF-8"])
        #expect(await accepted.waitFor { accepted.screen().contains("? [y/N]") }, "\(accepted.screen())")
        try accepted.send("y", "Enter")
        #expect(await accepted.waitFor { accepted.exitStatus() != nil })
        #expect(accepted.exitStatus() == 0)
        #expect(accepted.unwrappedScreen().contains("removed everything cached in"), "\(accepted.screen())")
        #expect(!FileManager.default.fileExists(atPath: try fixture.feedFolder.path))
    }
}
