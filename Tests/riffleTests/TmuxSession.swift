import Foundation

/// Runs a program in a detached tmux session on a private server socket, so a test can type into it
/// and read its screen like a person would.
final class TmuxSession {
    let socket: String
    let name = "riffle"

    /// Starts `command` (an argument vector, quoted for the shell tmux uses) in a `width`x`height` pane.
    init(command: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        socket = "riffle-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
        let env = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        // NO_COLOR is dropped from what the test runner passes down (swift test may set it); a test
        // that wants it says so.
        let program = "env -u NO_COLOR \(env) " + command.map(Self.quote).joined(separator: " ")
        // The shell records the exit status; the pane stays so the last screen can still be read.
        let line = "\(program); echo $? > \(Self.quote(statusFile.path)); sleep 600"
        try tmux(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), line])
    }

    let statusFile: URL

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: statusFile)
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = environment["TERM"].flatMap { $0 == "dumb" || $0.isEmpty ? nil : $0 } ?? "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        return try Spawn.run(["/usr/bin/tmux", "-u", "-L", socket] + arguments, environment: environment).stdout
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// The text on screen now.
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", name])) ?? "" }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// The program's exit status once it has exited, else nil.
    func exitStatus() -> Int? {
        guard let text = try? String(contentsOf: statusFile, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held. Polling a condition
    /// (not sleeping for a guessed time) keeps the test fast when things are fast and correct when slow.
    func waitUntil(timeout: TimeInterval = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }
}
