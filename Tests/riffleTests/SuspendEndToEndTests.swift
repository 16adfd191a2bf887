import Foundation
import RiffleTestSupport
import Testing

/// riffle stopped and continued under a shell with job control (bash, as a person runs it): by
/// Ctrl-Z, which ncurses sees, and by SIGSTOP (`kill -STOP`, a debugger), which nobody can catch.
/// While riffle is stopped the shell takes the terminal back: its modes (line editing, echo) and
/// its lines on screen. After `fg` riffle must own the terminal again: every cell drawn, keys read
/// one at a time without echo.
@Suite("riffle stopped and continued under a shell", .serialized)
struct SuspendEndToEndTests {
    @Test func afterAStopAndFgTheScreenIsDrawnAgainAndKeysWork() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: ["bash", "--norc", "--noprofile", "-i"], width: 100, height: 24,
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color", "PS1": "$ "],
                                      socketPrefix: "suspend")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("$") }, "\(session.screen())")
        try session.send("clear; \(TmuxSession.quote(RiffleBinary.url.path)) --cache-dir \(TmuxSession.quote(cache.path))", "Enter")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("item 1/") }, "\(session.screen())")
        let pid = try #require(try session.childProcess(running: RiffleBinary.url.path))
        defer {
            // A riffle left stopped (the bug) does not outlive the test; a number reused since is not ours.
            let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
            if exe.map({ URL(fileURLWithPath: $0).resolvingSymlinksInPath() }) == RiffleBinary.url.resolvingSymlinksInPath() {
                kill(pid, SIGKILL)
            }
        }

        // Ctrl-Z: the shell's prompt, then fg: the list again, and j moves
        try session.send("C-z")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("Stopped") }, "\(session.screen())")
        try session.send("fg", "Enter")
        #expect(await session.waitFor(timeout: Self.patience) { Self.riffleOwns(session.screen()) }, "\(session.screen())")
        try session.send("j")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("item 2/") }, "\(session.screen())")

        // SIGSTOP, which riffle cannot see coming: the same after fg (before: the shell's lines stayed
        // on screen, and keys echoed and waited for Enter)
        kill(pid, SIGSTOP)
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("Stopped") }, "\(session.screen())")
        try session.send("fg", "Enter")
        #expect(await session.waitFor(timeout: Self.patience) { Self.riffleOwns(session.screen()) }, "\(session.screen())")
        try session.send("j")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("item 3/") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("$") && !session.screen().contains("? help") }, "\(session.screen())")
    }

    /// A wait that succeeds returns at once; the suite may hold the machine's two cores for long.
    static let patience: TimeInterval = 120

    /// riffle's screen alone: its header and status bar, none of the shell's lines.
    static func riffleOwns(_ screen: String) -> Bool {
        screen.contains("? help") && screen.contains("item ") && !screen.contains("Stopped")
    }
}
