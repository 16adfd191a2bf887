import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A raw listener on 127.0.0.1 that runs `script` on each connection it accepts (each on its own
/// thread), so a test can send any bytes: chunked bodies, malformed heads, silence, an early close.
/// It counts accepted connections, which shows whether a client reused one.
package final class ScriptedListener: Sendable {
    package let port: Int
    private let fd: Int32
    // A box of its own, so the accept thread does not keep the listener (and its deinit) alive.
    private let accepted = AcceptCount()

    /// How many connections have been accepted so far.
    package var connectionCount: Int { accepted.count.withLock { $0 } }

    /// - Parameter script: runs for each connection with its index (0 for the first accepted); the
    ///   connection is closed when the script returns.
    package init(_ script: @escaping @Sendable (inout RawConnection, Int) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        fd = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        guard bound else { close(listener); throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let accepted = accepted
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }  // shutdown() in deinit ends the loop
                // No read waits for ever: a peer silent for a minute counts as gone.
                var timeout = timeval(tv_sec: 60, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let index = accepted.count.withLock { count in
                    defer { count += 1 }
                    return count
                }
                Thread.detachNewThread {
                    var connection = RawConnection(fd: client)
                    script(&connection, index)
                    close(client)
                }
            }
        }
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    /// `http://127.0.0.1:PORT` + `path`.
    package func url(_ path: String = "/") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
}

private final class AcceptCount: Sendable {
    let count = Mutex(0)
}

/// One accepted connection, read and written with blocking calls.
package struct RawConnection {
    package let fd: Int32
    private var buffer: [UInt8] = []

    package init(fd: Int32) { self.fd = fd }

    /// Reads one request (head and `Content-Length` body); returns the head's text, nil at end of stream.
    package mutating func readRequest() -> String? {
        guard let head = readHead() else { return nil }
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        return readBody(length: length) == length ? head : nil
    }

    /// Reads a request's head, leaving its body unread; returns the head's text, nil at end of stream.
    package mutating func readHead() -> String? {
        while true {
            if let end = findBlankLine() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard receive() else { return nil }
        }
    }

    /// Reads and discards up to `length` bytes of body; returns how many arrived before the stream ended.
    package mutating func readBody(length: Int) -> Int {
        var count = 0
        while true {
            let take = min(buffer.count, length - count)
            buffer.removeFirst(take)
            count += take
            guard count < length, receive() else { return count }
        }
    }

    /// Writes `text` (as UTF-8) in full.
    package func write(_ text: String) { write(Array(text.utf8)) }

    package func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Waits for whatever the peer sends first (any bytes, not only HTTP), and discards it.
    package mutating func readSome() {
        _ = receive()
        buffer.removeAll()
    }

    /// Blocks until the peer closes (or resets) the connection, or is silent for a minute, discarding
    /// what it sends.
    package mutating func waitForClose() {
        while receive() {}
    }

    private mutating func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func findBlankLine() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10
            && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
