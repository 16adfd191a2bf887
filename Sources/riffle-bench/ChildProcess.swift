import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with posix_spawn and waits for it. Standard streams go to /dev/null (or stdout to
/// a file): benchmarks read results from files.
enum ChildProcess {
    struct Outcome {
        var status: Int32
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    @discardableResult
    static func run(_ argv: [String], stdout: String = "/dev/null") throws -> Outcome {
        let pid = try start(argv, stdout: stdout)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return Outcome(status: (status >> 8) & 0xFF)
    }

    /// Starts `argv` and returns at once; `exited` tells when it has ended (and reaps it).
    static func start(_ argv: [String], stdout: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        if (environment["TERM"] ?? "").isEmpty || environment["TERM"] == "dumb" { environment["TERM"] = "xterm-256color" }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        // A bare name (`tmux`) is looked up on PATH.
        let spawned = argv[0].contains("/") ? posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
                                            : posix_spawnp(&pid, argv[0], &actions, nil, cArgs, cEnv)
        guard spawned == 0 else { throw Failure(description: "could not start \(argv[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Whether the child `pid` (from `start`) has ended; once it has, it is reaped.
    static func exited(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
        return result != 0
    }

    /// Whether `name` is an executable on PATH.
    static func onPath(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// The `riffle` executable built beside this benchmark (`swift build -c release` builds both).
    static var riffle: String? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = directory.appendingPathComponent("riffle").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
