import Dispatch
import Foundation
import Synchronization

/// Standard output for `riffle dump`, written beside the loads: the command hands each page's bytes
/// over in order and goes on asking for pages while a slow reader (a pipe into `less`, a full disk
/// under a redirection) takes them. At most `limit` pages wait to be written; past that the command
/// waits for the writer, so a stalled reader never makes riffle hold a whole feed in memory.
final class DumpWriter: Sendable {
    private struct State {
        var pending = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// Why standard output stopped taking bytes (`errno`); nothing is written after it.
        var failure: Int32?
    }

    private let queue = DispatchQueue(label: "riffle.dump.output")
    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int = 4) { self.limit = max(1, limit) }

    /// Queues `bytes` after everything queued before; waits first while `limit` pages are queued.
    func write(_ bytes: [UInt8]) async {
        guard !bytes.isEmpty else { return }
        while true {
            let queued = state.withLock { state -> Bool in
                guard state.pending >= limit else {
                    state.pending += 1
                    return true
                }
                return false
            }
            if queued { break }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.pending >= limit else { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        queue.async { [self] in
            if state.withLock({ $0.failure == nil }), let code = Self.writeAll(bytes) {
                state.withLock { $0.failure = code }
            }
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pending -= 1
                defer { state.waiting.removeAll() }
                return state.waiting
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// Returns once everything queued is written.
    func finish() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    /// Why standard output stopped taking bytes (a reader that closed the pipe: `EPIPE`, a full disk
    /// under a redirection: `ENOSPC`), once it has; what is queued after that is dropped. The command
    /// stops asking for pages when it sees it, and ends once what it fetched is filed (`endForFailure`).
    var failure: Int32? { state.withLock { $0.failure } }

    /// Ends the process for `failure`, as it would have ended at the failed write: killed by SIGPIPE
    /// for a closed pipe (the shell's status 141, silent, as `cat` and `grep` end), else one line
    /// saying why and status 1.
    static func end(for failure: Int32) -> Never {
        if failure == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        StandardError.fail("cannot write the output: \(String(cString: strerror(failure)))")
    }

    /// Writes to standard output (SIGPIPE ignored: a closed pipe is `EPIPE` here); returns the
    /// `errno` of a write that failed, rather than trapping in Foundation.
    static func writeAll(_ text: [UInt8]) -> Int32? {
        var bytes = text[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                guard errno == EINTR else { return errno }
                continue
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}
