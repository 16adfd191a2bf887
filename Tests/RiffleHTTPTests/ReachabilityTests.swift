import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleHTTP

/// Route tables saved from real machines (`cat /proc/net/route /proc/net/ipv6_route`).
enum SavedRoutes {
    /// A cloud VM: IPv4 and IPv6 default routes on eth0, and the kernel's reject default on lo.
    static let serverIPv4 = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
    eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
    """
    static let serverIPv6 = """
    fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0
    00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
    """
    /// A laptop whose Wi-Fi lost its network: only link-local routes and the reject default on lo.
    static let laptopOfflineIPv4 = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    wlp2s0\t0000FEA9\t00000000\t0001\t0\t0\t1000\t0000FFFF\t0\t0\t0
    """
    static let laptopOfflineIPv6 = """
    fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001   wlp2s0
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
    """
    /// An IPv6-only host: no IPv4 routes at all, a default route through its router on ens3.
    static let ipv6OnlyIPv4 = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    static let ipv6OnlyIPv6 = """
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe80000000000000022233fffe445566 00000400 00000003 00000000 00450003     ens3
    """
    /// `ip route add unreachable default`: a default route that refuses everything.
    static let unreachableIPv4 = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    *\t00000000\t00000000\t0201\t0\t0\t0\t00000000\t0\t0\t0
    """
}

@Suite("Reachability: the system's routes, and a sequence of online/offline")
struct ReachabilityTests {
    @Test func savedTablesReadAsAPersonWould() {
        #expect(RouteTable.status(ipv4: SavedRoutes.serverIPv4, ipv6: SavedRoutes.serverIPv6) == .online)
        #expect(RouteTable.status(ipv4: SavedRoutes.serverIPv4, ipv6: nil) == .online)
        #expect(RouteTable.status(ipv4: SavedRoutes.laptopOfflineIPv4, ipv6: SavedRoutes.laptopOfflineIPv6) == .offline)
        #expect(RouteTable.status(ipv4: SavedRoutes.ipv6OnlyIPv4, ipv6: SavedRoutes.ipv6OnlyIPv6) == .online)
        #expect(RouteTable.status(ipv4: SavedRoutes.unreachableIPv4, ipv6: SavedRoutes.laptopOfflineIPv6) == .offline)
        // Unreadable tables are no evidence of being offline; unreadable lines are skipped.
        #expect(RouteTable.status(ipv4: nil, ipv6: nil) == .online)
        #expect(RouteTable.status(ipv4: "garbage\n\u{1b}[2J\tzz", ipv6: "") == .offline)
    }

    @Test func routesAreParsedField() {
        let v4 = RouteTable.ipv4(SavedRoutes.serverIPv4).routes
        #expect(v4 == [RouteTable.Route(interface: "eth0", isDefault: true, flags: 3),
                       RouteTable.Route(interface: "eth0", isDefault: false, flags: 1)])
        let v6 = RouteTable.ipv6(SavedRoutes.serverIPv6).routes
        #expect(v6.map(\.interface) == ["eth0", "eth0", "lo", "lo"])
        #expect(v6.map(\.isDefault) == [false, true, false, true])
        #expect(v6.map(\.leadsOut) == [false, true, false, false])
        #expect(v6[3].isReject)
    }

    @Test func theSequenceYieldsTheStatusThenOnlyChanges() async {
        let script = Mutex<[Reachability.Status]>([.online, .online, .online, .offline, .offline, .online])
        let reads = Mutex(0)
        let monitor = Reachability(interval: .milliseconds(1)) {
            reads.withLock { $0 += 1 }
            return script.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
        var seen: [Reachability.Status] = []
        for await status in monitor {
            seen.append(status)
            if seen.count == 3 { break }
        }
        #expect(seen == [.online, .offline, .online])
        #expect(reads.withLock { $0 } == 6)
    }

    @Test func cancellingTheTaskEndsTheSequence() async {
        let reads = Mutex(0)
        let monitor = Reachability(interval: .milliseconds(2)) {
            reads.withLock { $0 += 1 }
            return .online
        }
        let watcher = Task { () async -> [Reachability.Status] in
            var seen: [Reachability.Status] = []
            for await status in monitor { seen.append(status) }
            return seen
        }
        // It keeps polling (several reads) without yielding an unchanged status...
        let deadline = ContinuousClock.now + patience
        while reads.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        watcher.cancel()
        // ...and ends once cancelled.
        #expect(await watcher.value == [.online])
    }

    @Test func thisMachineHasARoute() {
        // The tests reach 127.0.0.1 only, but the machine they run on has its tables; reading them must work.
        let tables = FileManager.default.contents(atPath: "/proc/net/route").map { String(decoding: $0, as: UTF8.self) }
        #expect(tables != nil)
        #expect(Reachability.current() == RouteTable.status(ipv4: tables, ipv6: FileManager.default.contents(atPath: "/proc/net/ipv6_route")
            .map { String(decoding: $0, as: UTF8.self) }))
    }

    @Test func aConnectivityFailureIsOneAnswerForAClosedPort() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let url = server.url("/news")
        server.stop()
        let client = makeClient(server) { $0.retry = .none }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, .url(url))) }
        #expect(error?.isConnectivityFailure == true)
    }
}
