/// Whether this machine has a way to the network, read from the system's routing tables (a default
/// route on an interface other than loopback, IPv4 or IPv6), and an `AsyncSequence` of its changes:
/// what seed 001 checked before sending, for a caller choosing a cache policy.
///
/// ```swift
/// // Once, before a request:
/// let policy: CachePolicy = Reachability.current() == .online ? .returnCacheThenLoad : .returnCacheDontLoad
/// let reply = try await client.send(Endpoint<JSONValue>(.get, "/news", cachePolicy: policy))
///
/// // Or follow it: the status now, then each change, until the task is cancelled.
/// let watcher = Task {
///     for await status in Reachability(interval: .seconds(2)) { print("network:", status) }
/// }
/// watcher.cancel()
/// ```
///
/// Having a route is not the same as reaching a server (a captive portal, a dead upstream): a
/// request's own errors (`RiffleError.isConnectivityFailure`) stay the final word. Where the tables
/// cannot be read (no `/proc`) the status is `.online`, so requests are tried.
public struct Reachability: AsyncSequence, Sendable {
    /// Whether there is a way out.
    public enum Status: Sendable, Equatable, CustomStringConvertible {
        /// A default route through a real interface.
        case online
        /// No such route: requests would fail at once (`RiffleError.offline`, `.cannotConnect`).
        case offline

        /// `online` or `offline`.
        public var description: String { self == .online ? "online" : "offline" }
    }

    /// Each change of status, the current one first.
    public typealias Element = Status
    /// Following the status never fails.
    public typealias Failure = Never

    /// How often the tables are read while nothing changes.
    public var interval: Duration
    private let read: @Sendable () -> Status

    /// Follows this machine's routing tables, reading them every `interval` (2 s by default: two small
    /// files from the kernel, no noticeable cost).
    public init(interval: Duration = .seconds(2)) {
        self.init(interval: interval, source: { RouteTable.current() })
    }

    /// Follows `source` instead of the routing tables (tests, or another signal the app trusts more).
    public init(interval: Duration, source: @escaping @Sendable () -> Status) {
        self.interval = interval
        self.read = source
    }

    /// This machine's status now, from its routing tables.
    public static func current() -> Status { RouteTable.current() }

    /// An iterator over the status changes.
    public func makeAsyncIterator() -> Iterator { Iterator(interval: interval, read: read) }

    /// Yields the status at once, then each change; ends (nil) when its task is cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        let interval: Duration
        let read: @Sendable () -> Status
        var last: Status?

        /// The next status change.
        public mutating func next() async -> Status? {
            while !Task.isCancelled {
                let status = read()
                if status != last {
                    last = status
                    return status
                }
                do { try await Task.sleep(for: interval) } catch { return nil }
            }
            return nil
        }
    }
}
