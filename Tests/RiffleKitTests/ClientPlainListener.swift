import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain-HTTP port that answers whatever arrives (a TLS ClientHello included) with `400 Bad Request`
/// and closes, as nginx and most servers do. HTTPServer instead waits for a request head that a TLS
/// handshake never sends, which would look like a timeout rather than a TLS failure.
final class PlainListener: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        fd = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 8) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }  // shutdown() in deinit ends the loop
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = recv(client, &buffer, buffer.count, 0)
                let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = send(client, reply, reply.count, Int32(MSG_NOSIGNAL))
                close(client)
            }
        }
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
