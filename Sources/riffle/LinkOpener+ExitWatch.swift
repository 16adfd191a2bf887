import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LinkOpener {
    /// A detached browser, watched on a thread of its own until it exits: its standard error is read
    /// all along (so it never blocks on a full pipe) and the start of it kept; a status other than 0
    /// is reported with the first line of it.
    ///
    /// The exit is looked for every quarter second rather than inferred from the end of the pipe: a
    /// launcher (`xdg-open`) may exit while the browser it started keeps the pipe open for hours.
    /// After the exit the pipe is still read to its end, never closed early, so that browser is never
    /// killed by a write to a closed pipe.
    struct ExitWatch: Sendable {
        let pid: pid_t
        /// The read end of the browser's standard error; -1 when there is none.
        let errors: Int32
        let program: String
        let exited: @Sendable (Failure) -> Void

        /// How much of standard error is kept: enough for a first line.
        static let kept = 4096

        func start() {
            let watch = self
            Thread { watch.run() }.start()
        }

        func run() {
            var head: [UInt8] = []
            var open = errors >= 0
            var status: Int32 = 0
            while true {
                if open {
                    var watched = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
                    if poll(&watched, 1, 250) > 0 { open = read(into: &head) }
                }
                let reaped = waitpid(pid, &status, open ? WNOHANG : 0)
                if reaped == pid { break }
                if reaped == -1, errno != EINTR {
                    // Not ours to wait for any more (nothing else reaps it, but never spin on an error).
                    finish(open: open)
                    return
                }
            }
            // What it wrote before exiting is in the pipe now.
            while open {
                var watched = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
                guard poll(&watched, 1, 0) > 0 else { break }
                open = read(into: &head)
            }
            let code = exitCode(status)
            if code != 0 { exited(.exited(program: program, status: code, message: firstLine(of: head))) }
            finish(open: open)
        }

        /// Reads what the pipe holds, keeping the first `kept` bytes; false at its end (or on an error).
        private func read(into head: inout [UInt8]) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(errors, $0.baseAddress, $0.count) }
            if count > 0 {
                head += chunk.prefix(max(0, min(count, Self.kept - head.count)))
                return true
            }
            return count < 0 && (errno == EINTR || errno == EAGAIN)
        }

        /// Reads the pipe to its end (whatever the browser still runs), then closes it.
        private func finish(open: Bool) {
            guard errors >= 0 else { return }
            var open = open
            var ignored: [UInt8] = []
            while open {
                open = read(into: &ignored)
                ignored.removeAll(keepingCapacity: true)
            }
            close(errors)
        }
    }
}
