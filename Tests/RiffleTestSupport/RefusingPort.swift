import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port that refuses every connection for as long as this object lives: a socket bound to
/// it that never listens. Nothing else can take the port meanwhile, so a test never assumes that a
/// well-known port (9, 1) is closed.
package final class RefusingPort: Sendable {
    package let port: Int
    private let fd: Int32
    /// The bound socket (closed with this port).
    var fileDescriptor: Int32 { fd }

    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { close(fd); throw POSIXError(.EADDRINUSE) }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}

/// A loopback port where a connection is never answered, as on a host that drops packets: it
/// listens with an accept queue of one, filled at once by a connection of its own that is never
/// accepted, so the kernel drops every SYN that comes after (and the client waits out its connect
/// timeout). Nothing is ever read: no request can reach it.
package final class SilentPort: Sendable {
    package let port: Int
    private let listener: Int32
    private let filler: Int32

    package init() throws {
        let refusing = try RefusingPort()
        let listener = dup(refusing.fileDescriptor)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        guard listen(listener, 0) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(refusing.port).bigEndian)
        // With room in the queue the handshake completes at once; then the queue is full.
        let connected = filler >= 0 && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            if filler >= 0 { close(filler) }
            close(listener)
            throw POSIXError(.ECONNREFUSED)
        }
        self.listener = listener
        self.filler = filler
        port = refusing.port
    }

    deinit {
        close(filler)
        close(listener)
    }
}
