import Glibc

/// Thin wrappers over the Glibc socket calls the server needs, so Glibc's quirks stay in one file.
enum Socket {
    /// A loopback listening socket on an ephemeral port; returns the descriptor and the port the kernel chose.
    static func listenOnLoopback(backlog: Int32 = 128) throws(DemoServerError) -> (fd: Int32, port: Int) {
        // SOCK_STREAM imports as an enum on Glibc, hence rawValue.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let code = errno; close(fd); throw .socket("bind", code) }
        guard listen(fd, backlog) == 0 else { let code = errno; close(fd); throw .socket("listen", code) }
        // Accepted from the watcher thread's poll loop, which must never block in accept.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)

        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { let code = errno; close(fd); throw .socket("getsockname", code) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// What a non-blocking accept found.
    enum Accepted {
        case connection(Int32)
        /// Nothing waiting (or a transient shortage of descriptors: tried again on the next wake-up).
        case none
        /// The listening socket was shut down or broke.
        case closed
    }

    /// Accepts one waiting connection without blocking (the listener is non-blocking). The new socket
    /// is close-on-exec, sends without Nagle's delay, and gives up a send after `sendTimeout`, so a
    /// client that stops reading cannot hold a worker forever.
    static func accept(_ listener: Int32, sendTimeout: Duration) -> Accepted {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                // Without TCP_NODELAY a small response waits on the peer's delayed ACK (~40 ms per request).
                var yes: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
                let (seconds, attoseconds) = sendTimeout.components
                var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                return .connection(fd)
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK, EMFILE, ENFILE, ENOBUFS, ENOMEM: return .none
            default: return .closed
            }
        }
    }

    /// What a non-blocking read found.
    enum Received { case data, nothing, endOfStream, failed }

    /// Appends what has arrived on `fd` to `buffer` without waiting, up to 1 MiB per call so one busy
    /// connection cannot starve the others.
    static func receiveAvailable(_ fd: Int32, into buffer: inout [UInt8]) -> Received {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < 1024 * 1024 {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                total += count
                continue
            }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return total > 0 ? .data : .nothing
            default: return .failed
            }
        }
        return .data
    }

    /// A pipe whose read end wakes a thread waiting in `poll`; both ends non-blocking and close-on-exec.
    static func makeWakePipe() throws(DemoServerError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .socket("pipe", errno) }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Wakes the thread polling `pipe`'s read end (a full pipe already will).
    static func wake(_ pipe: (read: Int32, write: Int32)) {
        var byte: UInt8 = 1
        _ = Glibc.write(pipe.write, &byte, 1)
    }

    /// Empties the wake pipe.
    static func drain(_ pipe: (read: Int32, write: Int32)) {
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ Glibc.read(pipe.read, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Writes all of `bytes`; false when the peer is gone. MSG_NOSIGNAL keeps a hung-up peer from killing the process with SIGPIPE.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent > 0 { offset += sent; continue }
                if sent < 0 && errno == EINTR { continue }
                return false
            }
            return true
        }
    }

    /// Waits until `fd` is readable, hung up, or `milliseconds` pass; true when something happened on `fd`.
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }

    /// True when the peer has closed (or the socket was shut down), without consuming pipelined bytes.
    static func isClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Wakes any thread blocked on `fd` (accept, recv, poll) without freeing the descriptor number yet.
    static func shutdownBoth(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}

extension Socket {
    /// Gives the calling thread its system name (what `ps -L` and `/proc/self/task/*/comm` show),
    /// through `/proc/thread-self/comm`: Foundation's `Thread.name` reaches the system only when set
    /// after the thread is fully started, and `pthread_setname_np` does not import.
    static func nameCurrentThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
    }

    /// Sleeps without a descriptor; used where a poll on the connection would return immediately.
    static func pause(milliseconds: Int32) { _ = poll(nil, 0, milliseconds) }

    /// Sleeps until `deadline`, on time: a sleeping thread wakes 80-120 µs late on this kind of VM, so
    /// it sleeps until shortly before and yields the last stretch away. A benchmark's "5 ms server"
    /// then answers at 5.0 ms, and what is measured beyond that is the client's.
    static func sleep(until deadline: ContinuousClock.Instant) {
        let early = deadline - .microseconds(250)
        let remaining = early - .now
        if remaining > .zero { sleep(remaining) }
        while ContinuousClock.now < deadline { sched_yield() }
    }

    /// Sleeps for `duration` with nanosecond resolution.
    static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
