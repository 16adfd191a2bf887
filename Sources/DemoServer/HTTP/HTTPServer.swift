import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 for tests and the built-in demo feed.
///
/// It listens on an ephemeral port, keeps connections alive, reads `Content-Length` bodies
/// (answering `Expect: 100-continue`) and records every request it receives. Chunked request bodies
/// are refused with 411.
///
/// Threads are bounded: one thread watches every connection that waits for a request, and at most
/// `workers` threads answer requests (started as needed). A connection that sends no whole request
/// within `idleTimeout` is closed, and at `maxConnections` the longest-idle one makes room for a
/// new one, so idle clients cost no thread and cannot pile up.
///
/// ```swift
/// let server = try HTTPServer { request in
///     .json(#"{"hello": "\#(request.query("name") ?? "world")"}"#)
/// }
/// defer { server.stop() }
/// let url = server.baseURL.appending(path: "greet")   // http://127.0.0.1:PORT/greet
/// // … send requests, then: #expect(server.requestCount == 1)
/// ```
public final class HTTPServer: Sendable {
    // Threads hold the core, not the server, so dropping the last HTTPServer reference still stops them.
    private let core: ServerCore

    /// Starts listening immediately.
    /// - Parameters:
    ///   - requestLogLimit: how many requests `requests` keeps (the oldest go first); `requestCount` counts all.
    ///   - workers: the most requests answered at once (a handler that blocks holds one worker).
    ///   - idleTimeout: how long a connection may go without sending a whole request before it is
    ///     closed; also how long a send to a client that does not read may take.
    ///   - maxConnections: the most connections kept open at once.
    ///   - handler: answers each request; called concurrently from the worker threads.
    public init(requestLogLimit: Int = 10_000, workers: Int = 16, idleTimeout: Duration = .seconds(60),
                maxConnections: Int = 512, handler: @escaping @Sendable (Request) -> Response) throws(DemoServerError) {
        core = try ServerCore(requestLogLimit: requestLogLimit, workers: workers, idleTimeout: idleTimeout,
                              maxConnections: maxConnections, handler: handler)
        core.start()
    }

    /// The name every thread of this server carries (`/proc/self/task/*/comm` on Linux).
    public var threadName: String { core.threadName }

    deinit { core.stop() }

    /// The port the kernel chose.
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(core.port)")! }

    /// The URL for `pathAndQuery` on this server, e.g. `url("/api/items?page=2")`.
    public func url(_ pathAndQuery: String) -> URL {
        let separator = pathAndQuery.hasPrefix("/") ? "" : "/"
        return URL(string: "http://127.0.0.1:\(core.port)\(separator)\(pathAndQuery)")!
    }

    /// How many complete requests have arrived since start (or the last `resetLog()`).
    public var requestCount: Int { core.state.withLock { $0.requestCount } }

    /// The most requests that were being answered at the same moment (from arrival until the answer
    /// was sent), for tests that check a client's concurrency.
    public var maxConcurrentRequests: Int { core.state.withLock { $0.maxInFlight } }

    /// A copy of the received requests, oldest first, up to `requestLogLimit` of them.
    public var requests: [Request] { core.state.withLock { Array($0.log.suffix(core.requestLogLimit)) } }

    /// How many connections have been accepted since start (or the last `resetLog()`); shows keep-alive reuse.
    public var connectionCount: Int { core.state.withLock { $0.connectionCount } }

    /// Clears `requests`, `requestCount` and `connectionCount`, for tests that count one phase at a time.
    public func resetLog() {
        core.state.withLock {
            $0.log.removeAll()
            $0.requestCount = 0
            $0.connectionCount = 0
        }
    }

    /// Whether `stop()` has not been called yet.
    public var isRunning: Bool { !core.isStopped }

    /// Closes the listening socket and every open connection, then waits (up to 5 s) for the server's
    /// threads to end. Later connection attempts are refused. Safe to call more than once.
    public func stop() { core.stop() }
}
