import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts copies of this test binary (`/proc/self/exe`) running one Swift Testing test, so two real
/// processes share a cache folder. Threads with their own SQLite connections would not exercise the
/// file locks between processes.
enum CacheChildProcess {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Spawns one child per entry of `environments` (added to this process's environment), all running
    /// at once, and returns their exit statuses in order.
    static func run(filter: String, environments: [[String: String]]) throws -> [Int32] {
        let executable = "/proc/self/exe"
        let argv = [executable, "--testing-library", "swift-testing", "--filter", filter]
        var pids: [pid_t] = []
        for extra in environments {
            let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
            let cArgs = argv.map { strdup($0) } + [nil]
            let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (cArgs + cEnv).forEach { free($0) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, cArgs, cEnv)
            guard spawned == 0 else { throw Failure(description: "posix_spawn: \(String(cString: strerror(spawned)))") }
            pids.append(pid)
        }
        return pids.map { pid in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
            return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        }
    }
}
