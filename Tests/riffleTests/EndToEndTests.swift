import DemoServer
import Foundation
import Testing

@Suite("riffle driven in a real terminal (tmux)", .serialized)
struct EndToEndTests {
    @Test func browseTheDemoNextPageAndQuit() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])

        // Given the first page on screen
        let firstPage = await session.waitFor { session.screen().contains("page 1") && session.screen().contains("item 1/30") }
        #expect(firstPage, "first page never appeared:\n\(session.screen())")

        // When n, then q
        try session.send("n")
        let secondPage = await session.waitFor { session.screen().contains("/60 · page 2") }
        #expect(secondPage, "second page never appeared:\n\(session.screen())")
        try session.send("q")

        // Then riffle exits 0 and page 2 is on disk
        #expect(await session.waitFor { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")
        #expect(session.exitStatus() == 0)
        let pages = FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String } ?? []
        #expect(pages.contains { $0.hasSuffix("/feed_2.json") }, "files: \(pages)")
    }
}

@Suite("riffle's screen in tmux: hostile text and resizing", .serialized)
struct ScreenEndToEndTests {
    /// A feed whose first title tries to clear the screen, set the clipboard (OSC 52) and reverse the line.
    static let hostile = #"[{"id": 1, "title": "\u001b[2J\u001b]52;c;aGFja2Vk\u0007 evil \u202eesrever\u202c end", "author": "mallory"}, {"id": 2, "title": "second item", "author": "bob"}]"#

    @Test func escapeSequencesInTitlesNeverReachTheTerminal() async throws {
        let server = try HTTPServer { _ in .json(Self.hostile) }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, server.baseURL.absoluteString + "/p/{page}"],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])

        #expect(await session.waitFor { session.screen().contains("second item") }, "\(session.screen())")
        let screen = session.screen()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.contains("127.0.0.1") == true, "the header survived (no clear screen):\n\(screen)")
        #expect(screen.contains("␛[2J␛]52;c;aGFja2Vk␇ evil"), "\(screen)")
        #expect(screen.contains("�esrever� end"))
        #expect(try session.tmux(["list-buffers"]).isEmpty, "OSC 52 must not set tmux's clipboard")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
        #expect(session.exitStatus() == 0)
    }

    @Test func resizingRedrawsAndTooSmallSaysSo() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        // Resize while the first page is still loading.
        try session.resize(width: 60, height: 12)
        #expect(await session.waitFor { session.screen().contains("item 1/30") }, "\(session.screen())")
        var lines = session.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix(" riffle demo") == true)
        #expect(lines.count >= 12 && lines[11].contains("page 1"), "status bar on the last row:\n\(lines.joined(separator: "\n"))")

        try session.resize(width: 15, height: 4)
        #expect(await session.waitFor { session.screen().contains("too small") }, "\(session.screen())")

        try session.resize(width: 80, height: 20)
        #expect(await session.waitFor { session.screen().split(separator: "\n", omittingEmptySubsequences: false).count >= 20
            && session.screen().split(separator: "\n", omittingEmptySubsequences: false)[19].contains("page 1") }, "\(session.screen())")
        lines = session.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(!lines.contains { $0.contains("too small") })
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
    }
}

@Suite("riffle's colours in tmux", .serialized)
struct ColourEndToEndTests {
    func firstScreen(environment: [String: String], arguments: [String] = []) async throws -> String {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path] + arguments,
                                      environment: environment.merging(["LANG": "C.UTF-8", "TERM": "xterm-256color"]) { a, _ in a })
        #expect(await session.waitFor { session.screen().contains("item 1/30") })
        let coloured = try session.tmux(["capture-pane", "-p", "-e", "-t", session.name])
        try session.send("q")
        _ = await session.waitFor { session.exitStatus() != nil }
        return coloured
    }

    @Test func noColorLeavesOnlyAttributes() async throws {
        let plain = try await firstScreen(environment: ["NO_COLOR": "1"])
        // SGR 30-37 set a foreground colour (39, the default colour, is fine).
        let colour = try Regex(#"\x1B\[(?:[0-9;]*;)?3[0-7](?:;[0-9;]*)?m"#)
        #expect(plain.firstMatch(of: colour) == nil, "no foreground colour codes")
        #expect(plain.contains("\u{1B}[7m") || plain.contains(";7m"), "reverse video still marks the selection")
        let dark = try await firstScreen(environment: [:], arguments: ["--theme", "dark"])
        #expect(dark.contains("36m"), "the dark theme's cyan header")
    }
}

@Suite("riffle never leaves a raw terminal", .serialized)
struct RestoreEndToEndTests {
    @Test(arguments: ["INT", "TERM", "SEGV"])
    func theTerminalIsRestoredAfterASignal(signal: String) async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        // A shell in the pane, so the terminal's modes after riffle can be read back with stty.
        let session = try TmuxSession(command: ["bash", "--norc", "--noprofile"], environment: ["LANG": "C.UTF-8", "PS1": "$ "])
        try session.send("\(RiffleBinary.url.path) --cache-dir \(cache.path)", "Enter")
        #expect(await session.waitFor { session.screen().contains("item 1/30") }, "\(session.screen())")

        // The riffle this test started (the pane's shell's child), and no other process.
        let pid = try #require(try session.childProcess(running: RiffleBinary.url.path), "riffle is not running:\n\(session.screen())")
        kill(pid, ["INT": SIGINT, "TERM": SIGTERM, "SEGV": SIGSEGV][signal]!)
        // riffle has left the alternate screen: the shell's screen (with the command line) is back.
        #expect(await session.waitFor { !session.screen().contains("item 1/30") }, "\(session.screen())")
        try session.send("clear; stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon -e -echo -e -icanon; echo DONE-$((40+2))", "Enter")

        #expect(await session.waitFor { session.screen().contains("DONE-42") }, "\(session.screen())")
        let lines = session.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("echo") && lines.contains("icanon"), "line editing and echo are back:\n\(lines)")
        #expect(!lines.contains("-echo") && !lines.contains("-icanon"))
        #expect(!session.screen().contains("item 1/30"), "the alternate screen was left")
    }
}
