import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with posix_spawn and waits for it with waitpid. Foundation's `Process` on Linux
/// sometimes never notices the exit of a child whose own child daemonises (tmux's server), so tests
/// that start tmux use this.
enum Spawn {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ argv: [String], environment: [String: String], captureOutput: Bool) throws -> String {
        var fds: [Int32] = [-1, -1]
        if captureOutput { guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        if captureOutput { close(fds[1]) }
        guard spawned == 0 else {
            if captureOutput { close(fds[0]) }
            throw Failure(description: "could not start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var output = Data()
        if captureOutput {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fds[0], &chunk, chunk.count)
                if n <= 0 { break }
                output.append(contentsOf: chunk[0..<n])
            }
            close(fds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}
