import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a plain-`http://` URL on this machine points: the addresses to try, the `Host` header and the
/// name errors use. Nil for anything else (https, remote hosts, odd spellings such as `127.1`), which
/// URLSession keeps handling.
struct LoopbackTarget: Sendable, Equatable {
    /// One socket address to try, in order.
    enum Address: Sendable, Hashable {
        case v4(UInt32)  // network byte order
        case v6
    }

    let addresses: [Address]
    let port: UInt16
    /// The `Host` header: host (IPv6 in brackets) and the port when the URL names one.
    let hostHeader: String
    /// `host:port` (or just host) as `RiffleError(_:url:)` spells it, so both transports name a host alike.
    let hostDescription: String

    /// Connections are shared by requests to the same addresses and port.
    struct PoolKey: Sendable, Hashable {
        let addresses: [Address]
        let port: UInt16
    }

    var poolKey: PoolKey { PoolKey(addresses: addresses, port: port) }

    init?(_ url: URL) {
        guard url.scheme?.lowercased() == "http", let rawHost = url.host, !rawHost.isEmpty else { return nil }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        guard let addresses = Self.loopbackAddresses(host) else { return nil }
        guard let port = UInt16(exactly: url.port ?? 80), port != 0 else { return nil }
        self.addresses = addresses
        self.port = port
        // On bytes: Foundation's contains(_: StringProtocol) is an NSString search, and this runs per request.
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        hostHeader = url.port.map { "\(bracketed):\($0)" } ?? bracketed
        hostDescription = url.port.map { "\(rawHost):\($0)" } ?? rawHost
    }

    /// 127.0.0.0/8 in dotted-quad form, `::1` (any spelling inet_pton accepts) and `localhost`; nil otherwise.
    static func loopbackAddresses(_ host: String) -> [Address]? {
        let lowered = host.lowercased()
        // localhost may resolve to either family; the server behind it usually listens on IPv4.
        if lowered == "localhost" || lowered == "localhost." { return [.v4(UInt32(0x7F00_0001).bigEndian), .v6] }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127 ? [.v4(v4.s_addr)] : nil
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return bytes == [UInt8](repeating: 0, count: 15) + [1] ? [.v6] : nil
        }
        return nil
    }
}
