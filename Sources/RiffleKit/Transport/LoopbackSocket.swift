import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why a socket exchange failed; `LoopbackTransport` turns it into a `RiffleError` naming the host.
enum SocketFailure: Error, Equatable {
    /// connect() failed; the reason reads like URLSession's ("connection refused").
    case cannotConnect(String)
    /// The deadline passed.
    case timedOut
    /// The peer closed or reset the connection before the response was complete.
    case closed
    /// The bytes that came back are not an HTTP/1.x response.
    case malformed(String)
}

/// Non-blocking socket calls bounded by a deadline, waiting in poll() so a timeout or a shutdown from
/// another thread (cancellation) always ends the wait. Glibc's quirks stay in this file.
enum LoopbackSocket {
    /// A connected TCP socket to the first of `target`'s addresses that accepts.
    static func connect(to target: LoopbackTarget, until deadline: ContinuousClock.Instant,
                        cancel: CancelSwitch) throws(SocketFailure) -> Int32 {
        var reason = "connection refused"
        for address in target.addresses {
            let family = address == .v6 ? AF_INET6 : AF_INET
            let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw .cannotConnect(String(cString: strerror(errno))) }
            // Requests leave in one write and must not wait on Nagle for the previous segment's ACK.
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            guard cancel.attach(fd) else { close(fd); throw .closed }
            let code = start(fd, address, port: target.port)
            if code == 0 { return fd }
            if code == EINPROGRESS {
                do { try wait(fd, for: Int16(POLLOUT), until: deadline) } catch { cancel.detach(); close(fd); throw error }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return fd }
                reason = error == ECONNREFUSED ? "connection refused" : String(cString: strerror(error))
            } else {
                reason = code == ECONNREFUSED ? "connection refused" : String(cString: strerror(code))
            }
            cancel.detach()
            close(fd)
        }
        throw .cannotConnect(reason)
    }

    /// connect() on a non-blocking socket: 0, or the errno (EINPROGRESS while the handshake runs).
    private static func start(_ fd: Int32, _ address: LoopbackTarget.Address, port: UInt16) -> Int32 {
        let result: Int32
        switch address {
        case .v4(let raw):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr.s_addr = raw
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6:
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            socketAddress.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        if result == 0 { return 0 }
        let code = errno
        return code == EINTR ? EINPROGRESS : code
    }

    /// Writes all of `bytes`; MSG_NOSIGNAL keeps a hung-up peer from killing the process with SIGPIPE.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, until deadline: ContinuousClock.Instant) throws(SocketFailure) {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent > 0 { offset += sent; continue }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(fd, for: Int16(POLLOUT), until: deadline)
            default: throw .closed
            }
        }
    }

    /// Reads what is available (waiting for it) into `buffer`; 0 at end of stream.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer,
                        until deadline: ContinuousClock.Instant) throws(SocketFailure) -> Int {
        while true {
            // Reading first saves a poll() when the bytes are already there, the usual case.
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(fd, for: Int16(POLLIN), until: deadline)
            default: throw .closed
            }
        }
    }

    /// Waits until `fd` is ready for `events`, hung up or in error (the next call then says which).
    static func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws(SocketFailure) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timedOut }
            let (seconds, attoseconds) = remaining.components
            // Rounded up, so a wait never becomes a busy loop of zero-length polls.
            let milliseconds = Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { return }
            if result < 0 && errno != EINTR { throw .closed }
        }
    }

    /// True when an idle connection can no longer carry a request: the peer closed it, reset it, or
    /// sent bytes nobody asked for.
    static func isUnusable(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }
}

/// Lets the task that asked for a transfer end it from outside the thread doing the blocking I/O:
/// `cancel()` shuts the socket down, which wakes that thread's poll() at once.
///
/// shutdown, not close: the descriptor number stays taken until the I/O thread closes it, so a
/// cancellation can never hit an unrelated socket that reused the number.
final class CancelSwitch: Sendable {
    private struct State {
        var fd: Int32 = -1
        var cancelled = false
    }

    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if state.fd >= 0 { _ = shutdown(state.fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Makes `fd` the socket a cancellation shuts down; false when already cancelled.
    func attach(_ fd: Int32) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.fd = fd
            return true
        }
    }

    /// Stops watching the socket (before it is closed or pooled); true when cancelled meanwhile.
    @discardableResult
    func detach() -> Bool {
        state.withLock { state in
            state.fd = -1
            return state.cancelled
        }
    }
}

/// Idle keep-alive connections, a few per host and port.
///
/// A connection is put back only after its response was read to the end, so whatever comes out of
/// the pool is at a message boundary. One that the server closed while idle is dropped on the way out.
final class ConnectionPool: Sendable {
    private struct Idle {
        var fd: Int32
        var since: ContinuousClock.Instant
    }

    /// Idle connections kept per host and port; matches the loader's concurrency with room to spare.
    static let limit = 8
    /// Idle connections older than this are closed rather than reused: servers drop idle connections
    /// after a while (commonly 5 to 60 s), and a stale one costs a failed attempt.
    static let maxIdle = Duration.seconds(30)

    private let idle = Mutex<[LoopbackTarget.PoolKey: [Idle]]>([:])

    /// The most recently returned live connection to `key`, if any.
    func take(_ key: LoopbackTarget.PoolKey) -> Int32? {
        let now = ContinuousClock.now
        while true {
            let candidate: Idle? = idle.withLock { $0[key]?.popLast() }
            guard let candidate else { return nil }
            if now - candidate.since < Self.maxIdle && !LoopbackSocket.isUnusable(candidate.fd) { return candidate.fd }
            close(candidate.fd)
        }
    }

    func put(_ fd: Int32, _ key: LoopbackTarget.PoolKey) {
        let kept = idle.withLock { idle in
            guard idle[key, default: []].count < Self.limit else { return false }
            idle[key, default: []].append(Idle(fd: fd, since: .now))
            return true
        }
        if !kept { close(fd) }
    }

    func closeAll() {
        let all = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle.values.flatMap { $0.map(\.fd) }
        }
        for fd in all { close(fd) }
    }
}
