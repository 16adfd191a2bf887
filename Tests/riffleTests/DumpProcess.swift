import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the riffle binary with its output in files and waits with waitpid. Foundation's `Process`
/// on Linux now and then never notices a child's exit (a run of these tests hung on a zombie
/// riffle), and the dump and cache tests start riffle dozens of times.
enum DumpProcess {
    static func run(_ arguments: [String]) throws -> RiffleBinary.Result {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stdout").path, err = folder.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = [RiffleBinary.url.path] + arguments
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        guard spawned == 0 else { throw Spawn.Failure(description: "could not start riffle: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
        let exited = status & 0x7F == 0
        return RiffleBinary.Result(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                                   stdout: String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self),
                                   stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
    }
}
