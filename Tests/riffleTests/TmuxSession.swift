import Foundation

/// Runs a program in a detached tmux session on a private server socket, so a test can type into it
/// and read its screen like a person would. Everything it starts (the tmux server on its own socket,
/// the status file) it also ends; it never signals a process it did not start.
final class TmuxSession {
    let socket: String
    let name = "riffle"
    let statusFile: URL
    /// The tmux found on PATH.
    let tmux: String

    /// tmux on PATH. The end-to-end tests need it: without it they fail, saying so, rather than skip.
    static func locateTmux() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/tmux") {
            return "\(folder)/tmux"
        }
        throw Spawn.Failure(description: "tmux is not on PATH (\(path)); the end-to-end tests drive riffle in tmux: install it (apt-get install tmux)")
    }

    /// Starts `command` (an argument vector, quoted for the shell tmux uses) in a `width`x`height` pane,
    /// on a server of its own whose socket is named `socketPrefix-PID-RANDOM`.
    init(command: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:],
         socketPrefix: String = "riffle-test") throws {
        tmux = try Self.locateTmux()
        socket = "\(socketPrefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
        let env = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        // NO_COLOR is dropped from what the test runner passes down (swift test may set it); a test
        // that wants it says so.
        let program = "env -u NO_COLOR \(env) " + command.map(Self.quote).joined(separator: " ")
        // The shell records the exit status; the pane stays so the last screen can still be read.
        let line = "\(program); echo $? > \(Self.quote(statusFile.path)); sleep 600"
        try tmux(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), line])
    }

    deinit {
        // Our own server only (its private socket): the pane's processes go with it.
        _ = try? tmux(["kill-server"])
        // tmux leaves its socket file behind; it is ours (a name no one else uses).
        let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(folder)/tmux-\(getuid())/\(socket)")
        try? FileManager.default.removeItem(at: statusFile)
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = environment["TERM"].flatMap { $0 == "dumb" || $0.isEmpty ? nil : $0 } ?? "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        return try Spawn.runBlocking([tmux, "-u", "-L", socket] + arguments, environment: environment).stdout
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// The text on screen now.
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", name])) ?? "" }

    /// The text on screen now, with lines the terminal wrapped joined back into one.
    func unwrappedScreen() -> String { (try? tmux(["capture-pane", "-p", "-J", "-t", name])) ?? "" }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// The program's exit status once it has exited, else nil.
    func exitStatus() -> Int? {
        guard let text = try? String(contentsOf: statusFile, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The process running `executable` among those the pane started (its descendants), found
    /// through /proc; nil when there is none.
    func childProcess(running executable: String) throws -> pid_t? {
        let text = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pane = pid_t(text) else { return nil }
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        // As /proc/PID/exe names it: absolute, every symbolic link (`.build/debug`) resolved.
        let wanted = URL(fileURLWithPath: executable).absoluteURL.resolvingSymlinksInPath().path
        for (pid, _) in parents {
            var ancestor = parents[pid]
            while let current = ancestor, current != pane, current > 1 { ancestor = parents[current] }
            guard ancestor == pane,
                  let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
                  URL(fileURLWithPath: path).resolvingSymlinksInPath().path == wanted else { continue }
            return pid
        }
        return nil
    }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held. Polling a condition
    /// (not sleeping for a guessed time) keeps the test fast when things are fast and correct when
    /// slow. The polling runs on a thread of its own while the test awaits it: it holds no thread of
    /// the cooperative pool (two on a 2-core machine, shared by every test's tasks), and a busy pool
    /// cannot make it miss a message that is on screen for three seconds.
    func waitFor(timeout: TimeInterval = 20, _ condition: @escaping () -> Bool) async -> Bool {
        let poll = Unchecked(condition)
        return await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline {
                    if poll.value() {
                        continuation.resume(returning: true)
                        return
                    }
                    usleep(20_000)
                }
                continuation.resume(returning: poll.value())
            }.start()
        }
    }
}

/// A value handed to the polling thread of `TmuxSession.waitFor`.
final class Unchecked<Value>: @unchecked Sendable {
    // @unchecked: the test that made it awaits the thread that uses it, so the two never run at once.
    let value: Value
    init(_ value: Value) { self.value = value }
}
