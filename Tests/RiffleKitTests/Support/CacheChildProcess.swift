import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts `riffle-test-child` (the executable target built beside this test bundle), so real
/// processes share a cache folder, or run with a process-wide setting (a file size limit, another
/// user) that must not touch the other tests. Its output goes to a file (never a pipe) that the
/// parent shows on failure.
enum CacheChildProcess {
    struct Failure: Error, CustomStringConvertible { var description: String }

    struct Result {
        var status: Int32
        var output: String

        /// Whether the child ran `mode` and every one of its checks passed.
        func passed(_ mode: String) -> Bool {
            status == 0 && output.contains("ok \(mode)")
        }
    }

    /// The child program: found beside the test bundle, in the folder `swift build` put both in.
    static var executable: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.standardizedFileURL.deletingLastPathComponent()
        // On Linux the test runner is `<bin>/RifflePackageTests.xctest`; on macOS it is inside a bundle.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("riffle-test-child").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("riffle-test-child").path
    }

    /// Spawns one child per entry of `runs` (the child's arguments: a mode, then its own), all running
    /// at once, and returns their exit statuses and output in order. A child still running after
    /// `timeout` is killed (status -1).
    static func run(_ runs: [[String]], timeout: Duration = .seconds(120)) async throws -> [Result] {
        var children: [(pid: pid_t, output: String)] = []
        defer { for child in children { unlink(child.output) } }
        for arguments in runs {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-child-\(UUID().uuidString).out").path
            children.append((try spawn(arguments, output: output), output))
        }
        let deadline = ContinuousClock.now + timeout
        var results: [Result] = []
        for child in children {
            var status: Int32 = 0
            var exited = false
            // Polled without blocking a thread of the cooperative pool the other tests share.
            while !exited {
                let result = waitpid(child.pid, &status, WNOHANG)
                if result == child.pid { exited = true; break }
                if result == -1 && errno != EINTR { break }
                if ContinuousClock.now > deadline {
                    kill(child.pid, SIGKILL)
                    while waitpid(child.pid, &status, 0) == -1 && errno == EINTR {}
                    break
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
            let output = (try? String(contentsOfFile: child.output, encoding: .utf8)) ?? ""
            // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
            results.append(Result(status: exited && status & 0x7f == 0 ? (status >> 8) & 0xff : -1, output: output))
        }
        return results
    }

    /// The id of a process that has exited and been reaped: the child, run with no arguments.
    static func exitedProcessID() async throws -> pid_t {
        let pid = try spawn([], output: "/dev/null")
        let deadline = ContinuousClock.now + .seconds(60)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return pid }
            if result == -1 && errno != EINTR { throw Failure(description: "waitpid: \(String(cString: strerror(errno)))") }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                throw Failure(description: "riffle-test-child did not exit within a minute")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        let executable = executable
        let cArgs = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        // The child gets this process's environment (`environ`), XDG folders and all.
        let spawned = posix_spawn(&pid, executable, &actions, nil, cArgs, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// The lines of a child's output worth showing: its failed checks.
    static func failures(_ result: Result) -> String {
        result.output.split(separator: "\n").filter { $0.hasPrefix("FAIL") || $0.contains("error") }.prefix(20).joined(separator: "\n")
    }
}
