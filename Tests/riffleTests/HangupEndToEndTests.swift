import Foundation
import RiffleTestSupport
import Testing

/// A terminal that goes away (the tmux server killed, an ssh connection dropped) ends riffle even
/// when no SIGHUP reaches it: here riffle runs in a session of its own (`setsid`), so the hangup's
/// signal goes to the pane's shell alone, and riffle learns of it only from its input.
@Suite("riffle ends when its terminal is gone", .serialized)
struct HangupEndToEndTests {
    @Test func aTerminalThatHangsUpWithoutASignalEndsRiffle() async throws {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let session = try TmuxSession(command: ["setsid", RiffleBinary.url.path, "--cache-dir", cache.path],
                                      width: 100, height: 24, environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"],
                                      socketPrefix: "hangup")
        #expect(await session.waitFor { session.screen().contains("? help") }, "\(session.screen())")
        let pid = try #require(try session.childProcess(running: RiffleBinary.url.path))
        defer {
            // A riffle left running (the bug) does not outlive the test; a number reused since is not ours.
            let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
            if exe.map({ URL(fileURLWithPath: $0).resolvingSymlinksInPath() }) == RiffleBinary.url.resolvingSymlinksInPath() {
                kill(pid, SIGKILL)
            }
        }
        _ = try session.tmux(["kill-server"])

        // Gone, or a zombie nobody reaps (riffle's parent, the pane's shell, died with the terminal).
        let ended = await eventually {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return true }
            return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
        }
        #expect(ended, "riffle (pid \(pid)) still runs after its terminal hung up")
    }
}
