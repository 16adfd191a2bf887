import Foundation
import RiffleKit
import RiffleTUI
#if canImport(Glibc)
import Glibc
#endif

/// Opens a link the way the user's `$BROWSER` says, else with `xdg-open`.
///
/// `$BROWSER` is read as most tools read it: a `:`-separated list of commands, the first whose program
/// exists wins; each command may carry arguments (`firefox --new-tab`, quotes group words) and `%s`
/// where the URL goes (`%%` is a `%`); without `%s` the URL is the last argument. The program is
/// started from an argument vector, never through a shell, so a URL cannot inject a command, and only
/// `http` and `https` links are opened. The URL itself is made inert first (`InertLink`): one word of
/// printable ASCII, meaning the same URL, that a shell wrapped around `%s` by the user cannot run.
///
/// A terminal browser (w3m, lynx, elinks, links, browsh...) needs the terminal: it runs in the
/// foreground inside `suspend`, which the browse loop provides to hand the terminal over and take it
/// back. Any other program is started detached (its own process group, no terminal for its input and
/// output) and left running; its standard error is read, and when it exits with a status other than 0
/// (a graphical browser without a display) `exited` hears of it with the first line it wrote there.
enum LinkOpener {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notWeb(String)
        case noOpener(tried: [String])
        case failed(program: String, reason: String)
        /// The browser exited with `status`; `message` is the first line it wrote to standard error
        /// (sanitised, cut), when it wrote one and riffle was reading it.
        case exited(program: String, status: Int32, message: String? = nil)

        var description: String {
            switch self {
            case .notWeb(let link): "not opening '\(link)': only http and https links are opened"
            case .noOpener(let tried):
                tried.isEmpty ? "no browser to open links: set $BROWSER or install xdg-utils"
                    : "no browser to open links: none of \(tried.joined(separator: ", ")) was found (set $BROWSER)"
            case .failed(let program, let reason): "could not start \(program): \(reason)"
            case .exited(let program, let status, let message):
                "\(program) exited with status \(status)" + (message.map { ": \($0)" } ?? "")
            }
        }
    }

    /// A command ready to run: the program's full path, the argument vector, and where it runs.
    struct Command: Equatable {
        var program: String
        var arguments: [String]
        var inTerminal: Bool
    }

    /// Program names of browsers that draw in the terminal they are started from.
    static let terminalBrowsers: Set<String> = [
        "w3m", "lynx", "elinks", "links", "links2", "browsh", "carbonyl", "cha", "edbrowse", "netrik", "retawq", "www-browser",
    ]

    /// Opens `url`: the name of the browser it was handed to (for a terminal browser: that ran and
    /// exited with 0), or why not.
    /// - Parameters:
    ///   - suspend: runs its argument with the terminal handed over (the browse loop's screen
    ///     suspended and restored around it); called only for a terminal browser.
    ///   - exited: told, from another thread, when a detached browser exits with a status other than
    ///     0 (`Failure.exited` with its first line of standard error); never for one that succeeds.
    @discardableResult
    static func open(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
                     suspend: (() -> Void) -> Void,
                     exited: @escaping @Sendable (Failure) -> Void = { _ in }) -> Result<String, Failure> {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            return .failure(.notWeb(url.absoluteString))
        }
        let commands = commandLines(browser: environment["BROWSER"], url: url.absoluteString)
        guard let command = resolve(commands, path: environment["PATH"]) else {
            return .failure(.noOpener(tried: commands.compactMap(\.first)))
        }
        let name = URL(fileURLWithPath: command.program).lastPathComponent
        guard command.inTerminal else {
            return start(command, environment: environment, inTerminal: false, exited: exited).failure.map { .failure($0) } ?? .success(name)
        }
        var outcome: Failure?
        suspend { outcome = start(command, environment: environment, inTerminal: true).failure }
        return outcome.map { .failure($0) } ?? .success(name)
    }

    /// The command lines `$BROWSER` lists for `url` (made inert: `InertLink`), then `xdg-open URL`.
    static func commandLines(browser: String?, url: String) -> [[String]] {
        let url = InertLink.encode(url)
        var lines: [[String]] = []
        for entry in (browser ?? "").split(separator: ":") {
            var words = Self.words(String(entry))
            guard !words.isEmpty else { continue }
            if words.dropFirst().contains(where: { $0.contains("%s") }) {
                words = [words[0]] + words.dropFirst().map { substitute($0, url: url) }
            } else {
                words.append(url)
            }
            lines.append(words)
        }
        return lines + [["xdg-open", url]]
    }

    /// `%s` becomes the URL and `%%` a percent sign; anything else stays.
    static func substitute(_ word: String, url: String) -> String {
        var out = ""
        var rest = Substring(word)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let next = rest.index(after: percent)
            if next < rest.endIndex, rest[next] == "s" {
                out += url
                rest = rest[rest.index(after: next)...]
            } else if next < rest.endIndex, rest[next] == "%" {
                out += "%"
                rest = rest[rest.index(after: next)...]
            } else {
                out += "%"
                rest = rest[next...]
            }
        }
        return out + rest
    }

    /// Splits a command line into words at unquoted blanks; single quotes keep everything, double
    /// quotes and a backslash keep the next character. (The quoting a shell would do, without a shell.)
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                inWord = true
                if character == "'" || character == "\"" {
                    quote = character
                } else if character == "\\" {
                    escaped = true
                } else {
                    word.append(character)
                }
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// The first command line whose program exists: a path as given, a name on `path`.
    static func resolve(_ lines: [[String]], path: String?) -> Command? {
        let folders = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        for line in lines {
            guard let name = line.first, !name.isEmpty else { continue }
            let candidates = name.contains("/") ? [name] : folders.map { "\($0)/\(name)" }
            guard let program = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { continue }
            return Command(program: program, arguments: line, inTerminal: isTerminalBrowser(program))
        }
        return nil
    }

    /// Whether `program` (or what its symbolic links lead to, as `www-browser` does on Debian) is a
    /// terminal browser.
    static func isTerminalBrowser(_ program: String) -> Bool {
        let url = URL(fileURLWithPath: program)
        let names = [url.lastPathComponent, url.resolvingSymlinksInPath().lastPathComponent]
        return names.contains { terminalBrowsers.contains($0) }
    }

    /// Starts `command`. In the terminal: with the terminal as its standard streams, waited for.
    /// Otherwise: with /dev/null for its input and output and a pipe for its errors, in a process group
    /// of its own (a Ctrl-C meant for the terminal never reaches it), and a thread of its own reaps it
    /// whenever it exits (`ExitWatch`), telling `exited` when that was a failure.
    static func start(_ command: Command, environment: [String: String], inTerminal: Bool,
                      exited: @escaping @Sendable (Failure) -> Void = { _ in }) -> (pid: pid_t?, failure: Failure?) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The errors pipe: both ends close-on-exec, so no other program riffle starts inherits them
        // (the write end is dup'ed onto the browser's descriptor 2, which exec keeps).
        var errors: [Int32] = [-1, -1]
        if !inTerminal {
            if pipe(&errors) == 0 {
                _ = fcntl(errors[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(errors[1], F_SETFD, FD_CLOEXEC)
            } else {
                errors = [-1, -1]
            }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            if errors[1] >= 0 {
                posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
        }
        // The browser starts with no signal blocked and every signal at its default (riffle ignores
        // SIGPIPE and catches others; an ignored signal would stay ignored across exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if !inTerminal {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = command.arguments.map { strdup($0) } + [nil]
        let envp = GnuTLSImplicitInit.asTheUserLeftIt(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command.program, &actions, &attributes, argv, envp)
        if errors[1] >= 0 { close(errors[1]) }
        let name = URL(fileURLWithPath: command.program).lastPathComponent
        guard spawned == 0 else {
            if errors[0] >= 0 { close(errors[0]) }
            return (nil, .failed(program: name, reason: String(cString: strerror(spawned))))
        }
        guard inTerminal else {
            ExitWatch(pid: pid, errors: errors[0], program: name, exited: exited).start()
            return (pid, nil)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let code = exitCode(status)
        return (pid, code == 0 ? nil : .exited(program: name, status: code))
    }

    /// The exit status the shell would report: WIFEXITED / WEXITSTATUS, which Swift cannot import as
    /// macros, else 128 + the signal.
    static func exitCode(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// The first line of what a program wrote to standard error, as a toast may show it: control
    /// characters made visible (`Sanitizer`), blanks trimmed, at most 200 characters; nil when empty.
    static func firstLine(of bytes: [UInt8]) -> String? {
        let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .lazy.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty }
        guard let line else { return nil }
        let clean = Sanitizer.clean(line)
        return clean.count > 200 ? String(clean.prefix(199)) + "…" : clean
    }
}
