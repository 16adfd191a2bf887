import Foundation
import Glibc

/// A blocking loopback client that speaks raw HTTP, so tests see what an HTTP library would hide:
/// connection reuse, `100 Continue`, bodies after HEAD/304, pipelining, `Connection: close`. Every
/// read gives up after `timeout`.
final class RawClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    /// Nil with `errno` set when the connection is refused.
    init?(port: Int, timeout seconds: Int = 30) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { let code = errno; close(fd); errno = code; return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Data(text.utf8)) }

    func send(_ data: Data) {
        _ = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one response; `bodyExpected: false` for HEAD, where Content-Length describes a body not sent.
    func readReply(bodyExpected: Bool = true) -> Reply? {
        var headEnd: Int?
        while headEnd == nil {
            if let range = Data(buffer).range(of: Data("\r\n\r\n".utf8)) { headEnd = range.upperBound; break }
            guard fill() else { return nil }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        buffer.removeFirst(headEnd!)
        let length = bodyExpected ? Int(headers["content-length"] ?? "0") ?? 0 : 0
        while buffer.count < length { guard fill() else { return nil } }
        let body = Data(buffer[..<length])
        buffer.removeFirst(length)
        return Reply(status: Int(statusLine[1]) ?? 0, headers: headers, body: body)
    }

    /// True only when the server closed the connection (end of stream or reset) within `within`
    /// (else the client's timeout), with nothing unread before that.
    func wasClosedByServer(within: Duration? = nil) -> Bool {
        guard buffer.isEmpty else { return false }
        if let within {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = within.components.seconds * 1_000 + within.components.attoseconds / 1_000_000_000_000_000
            guard poll(&entry, 1, Int32(milliseconds)) > 0 else { return false }
        }
        guard !fill() else { return false }
        return lastReadEnded
    }

    /// Whether the last failed read was the end of the stream (or a reset) rather than a timeout.
    private var lastReadEnded = false

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            lastReadEnded = count == 0 || errno == ECONNRESET
            return false
        }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
