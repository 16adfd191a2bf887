import DemoServer
import Foundation
import Testing

@Suite("riffle in tmux: terminal browsers and a copied binary", .serialized)
struct InstalledEndToEndTests {
    /// A terminal browser (named lynx) that records its arguments and whether it had the terminal,
    /// shows a line and waits for Enter: the screen shows whether riffle gave the terminal up.
    @Test func aTerminalBrowserGetsTheTerminalAndTheScreenComesBack() async throws {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appending(path: "record").path
        let browser = folder.appending(path: "lynx")
        try LinkOpenerTests.Browsers.writeExecutable("""
        #!/bin/sh
        if [ -t 0 ] && [ -t 1 ]; then terminal=TERMINAL; else terminal=NO-TERMINAL; fi
        { for argument in "$@"; do printf '%s\\n' "$argument"; done; echo "$terminal"; } > '\(record)'
        echo "LYNX-HAS-THE-TERMINAL"
        read answer

        """, to: browser.path)
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", folder.appending(path: "cache").path],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color", "BROWSER": "\(browser.path) -accept_all_cookies"])
        #expect(await session.waitFor { session.screen().contains("item 1/30") }, "\(session.screen())")

        try session.send("o")
        #expect(await session.waitFor { session.screen().contains("LYNX-HAS-THE-TERMINAL") }, "\(session.screen())")
        #expect(!session.screen().contains("item 1/30"), "riffle's screen is put away while the browser runs")
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        let first = try DemoFeed.load().items[0].url
        #expect(lines == ["-accept_all_cookies", first, "TERMINAL"])

        try session.send("Enter")
        #expect(await session.waitFor { session.screen().contains("item 1/30") && !session.screen().contains("LYNX-HAS-THE-TERMINAL") },
                "riffle's screen is back whole:\n\(session.screen())")
        try session.send("j")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
        #expect(session.exitStatus() == 0)
    }

    /// The binary alone, copied to a folder of its own (nothing beside it): the demo, a theme and the
    /// presets all come from inside it.
    @Test func aCopiedBinaryNeedsNothingBesideIt() async throws {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appending(path: "bin/riffle")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written through a close-on-exec descriptor (a copy made by FileManager can be inherited,
        // open for writing, by a process another test starts, and then cannot be run: ETXTBSY).
        try LinkOpenerTests.Browsers.writeExecutable(Data(contentsOf: RiffleBinary.url), to: copy.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.deletingLastPathComponent().path) == ["riffle"])

        let feeds = try await Spawn.run([copy.path, "feeds"], environment: ["PATH": "", "HOME": folder.path])
        #expect(feeds.status == 0, "\(feeds.stderr)")
        #expect(feeds.stdout.contains("  hn ") && feeds.stdout.contains("  github:OWNER/REPO "))

        let session = try TmuxSession(command: [copy.path, "--theme", "light", "--cache-dir", folder.appending(path: "cache").path],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        #expect(await session.waitFor { session.screen().contains("item 1/30") }, "\(session.screen())")
        let coloured = try session.tmux(["capture-pane", "-p", "-e", "-t", session.name])
        #expect(coloured.contains("34m"), "the light theme's blue header")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
        #expect(session.exitStatus() == 0)
    }
}
