import Foundation

/// Runs a program in a detached tmux session on a private server socket, so a test can type into it
/// and read its screen like a person would.
final class TmuxSession {
    let socket: String
    let name = "riffle"

    /// Starts `command` (an argument vector, quoted for the shell tmux uses) in a `width`x`height` pane.
    init(command: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        socket = "riffle-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let env = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let line = (env.isEmpty ? "" : "env \(env) ") + command.map(Self.quote).joined(separator: " ")
        try tmux(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), line])
        // Keep the pane after the program exits so its exit status can be read.
        try tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-u", "-L", socket] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = environment["TERM"].flatMap { $0 == "dumb" || $0.isEmpty ? nil : $0 } ?? "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// The text on screen now.
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", name])) ?? "" }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// The program's exit status once it has exited, else nil.
    func exitStatus() throws -> Int? {
        let out = try tmux(["display-message", "-p", "-t", name, "#{pane_dead} #{pane_dead_status}"])
        let parts = out.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.first == "1", parts.count > 1 else { return nil }
        return Int(parts[1])
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
