import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with posix_spawn and waits for it (up to a timeout, then it is killed) with
/// waitpid, its output going to temporary files rather than pipes.
///
/// Tests run in parallel, and a child spawned by one test inherits every descriptor another test has
/// open at that moment. A pipe's write end inherited by a long-lived tmux server would keep the
/// reader waiting for an end of file forever; a file opened only inside the child cannot leak.
enum Spawn {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `argv` on a thread of its own and awaits it; a program still running after `timeout` is
    /// killed and reported as a failure. Waiting for a child never holds a thread of the cooperative
    /// pool (two on a 2-core machine, shared by every test's tasks): a test that did would stall every
    /// other test awaiting the pool for as long as its children run.
    static func run(_ argv: [String], environment: [String: String], timeout: Duration = .seconds(60),
                    stdout: String? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Swift.Result { try runBlocking(argv, environment: environment, timeout: timeout, stdout: stdout) })
            }.start()
        }
    }

    /// `run`, waiting on the calling thread: only for code already on a thread of its own (the polls
    /// of `TmuxSession.waitFor`) or in a `deinit`.
    /// - Parameter stdout: a path to open for its standard output instead of a temporary file (a FIFO
    ///   the test reads at its own pace); `Result.stdout` is then empty.
    static func runBlocking(_ argv: [String], environment: [String: String], timeout: Duration = .seconds(60),
                            stdout: String? = nil) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-spawn-\(UUID().uuidString)")
        let outPath = scratch.path + ".out", errPath = scratch.path + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Children start with no signal blocked and default handlers, whatever this thread has.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        var spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        // A file just written can be held open for writing, for an instant, by a process another test
        // is forking (between its fork and its exec): the kernel says ETXTBSY. It passes; try again
        // for up to 10 s, as Go's os/exec does.
        let busyDeadline = ContinuousClock.now + .seconds(10)
        while spawned == ETXTBSY && ContinuousClock.now < busyDeadline {
            usleep(20_000)
            spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        }
        guard spawned == 0 else {
            throw Failure(description: "could not start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        let deadline = ContinuousClock.now + timeout
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done == -1 && errno != EINTR { throw Failure(description: "waiting for \(argv[0]): \(String(cString: strerror(errno)))") }
            if ContinuousClock.now > deadline {
                // Only the child this call started.
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                throw Failure(description: "\(argv.joined(separator: " ")) was still running after \(timeout); killed it")
            }
            usleep(2_000)
        }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        // WEXITSTATUS, which Swift cannot import as a macro.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, stdout: stdout == nil ? read(outPath) : "", stderr: read(errPath))
    }
}
