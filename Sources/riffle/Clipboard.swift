import Foundation
import NcursesTerminal

/// Puts text on the clipboard (`y`, `Y`). Inside tmux (`$TMUX`) the text goes to tmux's own buffer
/// with `tmux load-buffer -w`, which also sends it on to the outer terminal's clipboard through
/// OSC 52 when tmux's `set-clipboard` allows: tmux's default ignores an OSC 52 from the program in
/// a pane, so the buffer would stay empty. Elsewhere (a terminal, over ssh) it is OSC 52 from riffle.
enum Clipboard {
    /// Copies `text`; returns why it could not, or nil.
    static func copy(_ text: String, environment: [String: String], screen: NcursesScreen) -> String? {
        if let tmux = environment["TMUX"], !tmux.isEmpty { return copyIntoTmux(text, environment: environment) }
        screen.setClipboard(text)
        return nil
    }

    /// `tmux load-buffer -w FILE`, the text in a file of riffle's own (0600, removed after).
    static func copyIntoTmux(_ text: String, environment: [String: String]) -> String? {
        guard let tmux = LinkOpener.resolve([["tmux"]], path: environment["PATH"])?.program else { return "tmux is not on PATH" }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            return "could not write \(file.path)"
        }
        // -w (tmux 3.2 and later) also sets the outer terminal's clipboard; older ones only know the buffer.
        for arguments in [["tmux", "load-buffer", "-w", file.path], ["tmux", "load-buffer", file.path]] {
            if Subprocess.run(tmux, arguments, environment: environment) == 0 { return nil }
        }
        return "tmux load-buffer failed"
    }
}

/// A helper program run to its end with /dev/null for its streams (nothing it says reaches the screen).
enum Subprocess {
    /// The program's exit status, or nil when it could not start or ran past `timeout` (then killed).
    static func run(_ program: String, _ arguments: [String], environment: [String: String], timeout: Duration = .seconds(5)) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else { return nil }
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done == -1 && errno != EINTR { return nil }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                return nil
            }
            usleep(1_000)
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
