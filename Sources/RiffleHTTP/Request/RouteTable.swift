import Foundation

/// The kernel's routing tables as Linux shows them in `/proc/net/route` (IPv4) and
/// `/proc/net/ipv6_route` (IPv6): what `Reachability` reads.
struct RouteTable: Equatable {
    /// One route: the interface it leaves by, whether it is a default route, and its flags.
    struct Route: Equatable {
        var interface: String
        var isDefault: Bool
        var flags: UInt32

        /// `RTF_UP`: the route is usable.
        var isUp: Bool { flags & 0x0001 != 0 }
        /// `RTF_REJECT`: a route that refuses traffic (the kernel's "unreachable" default on `lo`).
        var isReject: Bool { flags & 0x0200 != 0 }
        /// A way out of this machine: an up, non-reject default route through an interface other than loopback.
        var leadsOut: Bool { isDefault && isUp && !isReject && interface != "lo" }
    }

    var routes: [Route]

    /// `/proc/net/route`: a header line, then tab-separated `Iface Destination Gateway Flags RefCnt Use
    /// Metric Mask ...` with addresses and flags in hex. A default route has destination and mask 0.
    static func ipv4(_ text: String) -> RouteTable {
        RouteTable(routes: text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, let flags = UInt32(fields[3], radix: 16),
                  let destination = UInt32(fields[1], radix: 16), let mask = UInt32(fields[7], radix: 16) else { return nil }
            return Route(interface: String(fields[0]), isDefault: destination == 0 && mask == 0, flags: flags)
        })
    }

    /// `/proc/net/ipv6_route`: space-separated `destination prefix-length source source-length next-hop
    /// metric refcount use flags interface`, in hex, no header. A default route is `::/0`.
    static func ipv6(_ text: String) -> RouteTable {
        RouteTable(routes: text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, fields[0].count == 32, let flags = UInt32(fields[8], radix: 16) else { return nil }
            let isDefault = fields[0].allSatisfy { $0 == "0" } && fields[1] == "00"
            return Route(interface: String(fields[9]), isDefault: isDefault, flags: flags)
        })
    }

    /// Online when either table has a way out; tables that could not be read (nil: not Linux, no
    /// `/proc`) count as online, so requests are tried and their own errors tell.
    static func status(ipv4: String?, ipv6: String?) -> Reachability.Status {
        guard ipv4 != nil || ipv6 != nil else { return .online }
        let routes = (ipv4.map(Self.ipv4)?.routes ?? []) + (ipv6.map(Self.ipv6)?.routes ?? [])
        return routes.contains(where: \.leadsOut) ? .online : .offline
    }

    /// This machine's status now, from `/proc/net`.
    static func current() -> Reachability.Status {
        func read(_ path: String) -> String? {
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
        return status(ipv4: read("/proc/net/route"), ipv6: read("/proc/net/ipv6_route"))
    }
}
