import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts copies of this test binary (`/proc/self/exe`) running one Swift Testing test, so real
/// processes share a cache folder (threads with their own SQLite connections would not exercise the
/// file locks between processes), or run with a process-wide setting (a file size limit, another
/// user) that must not touch the other tests.
///
/// A child test does nothing unless its environment variables are set; its `#expect`s decide its
/// exit status, and its output goes to a file (never a pipe) that the parent shows on failure.
enum CacheChildProcess {
    struct Failure: Error, CustomStringConvertible { var description: String }

    struct Result {
        var status: Int32
        var output: String

        /// Whether the child ran `test` and it passed (a filter that matched nothing exits 0 too).
        func passed(_ test: String) -> Bool {
            status == 0 && output.contains("Test \(test)() passed")
        }
    }

    /// Spawns one child per entry of `environments` (added to this process's environment), all running
    /// at once, and returns their exit statuses and output in order. A child still running after
    /// `timeout` is killed (status -1).
    static func run(filter: String, environments: [[String: String]], timeout: Duration = .seconds(120)) async throws -> [Result] {
        let executable = "/proc/self/exe"
        let argv = [executable, "--testing-library", "swift-testing", "--filter", filter]
        var children: [(pid: pid_t, output: String)] = []
        defer { for child in children { unlink(child.output) } }
        for extra in environments {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-child-\(UUID().uuidString).out").path
            let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
            let cArgs = argv.map { strdup($0) } + [nil]
            let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (cArgs + cEnv).forEach { free($0) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, cArgs, cEnv)
            guard spawned == 0 else { throw Failure(description: "posix_spawn: \(String(cString: strerror(spawned)))") }
            children.append((pid, output))
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
                    waitpid(child.pid, &status, 0)
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

    /// The lines of a child's output worth showing: its failed expectations.
    static func failures(_ result: Result) -> String {
        result.output.split(separator: "\n").filter { $0.contains("✘") || $0.contains("error") }.prefix(20).joined(separator: "\n")
    }
}
