import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The floor any client meets on this machine: one thread, one kept-alive socket, blocking reads,
/// no Dispatch and no Swift concurrency. What a real transport takes beyond this is its own cost.
enum BlockingFloor {
    /// Milliseconds a page, fetching pages 1...`pages` from the demo server on `port`; nil on failure.
    static func run(port: UInt16, pages: Int) -> Double? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        let start = ContinuousClock.now
        for page in 1...pages {
            let request = Array("GET /api/items?page=\(page) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            guard send(fd, request, request.count, 0) == request.count else { return nil }
            // Read the head, then exactly Content-Length bytes of body.
            var received = 0, expected = -1
            while expected < 0 || received < expected {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
                guard count > 0 else { return nil }
                received += count
                if expected < 0, let total = total(buffer, received) { expected = total }
            }
        }
        return micros(start.duration(to: .now)) / 1000 / Double(pages)
    }

    /// Head plus body length once the head is complete.
    private static func total(_ bytes: [UInt8], _ count: Int) -> Int? {
        guard count >= 4 else { return nil }
        for i in 3..<count where bytes[i] == 10 && bytes[i - 1] == 13 && bytes[i - 2] == 10 && bytes[i - 3] == 13 {
            let head = String(decoding: bytes[..<i], as: UTF8.self).lowercased()
            guard let range = head.range(of: "content-length:") else { return nil }
            let digits = head[range.upperBound...].prefix { !$0.isNewline }.trimmingCharacters(in: .whitespaces)
            return Int(digits).map { i + 1 + $0 }
        }
        return nil
    }
}
