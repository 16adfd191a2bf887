import Foundation

/// The demo feed served over HTTP on 127.0.0.1: `GET /api/items?page=N`.
///
/// Pages carry an `ETag` (a hash of the body) and `Cache-Control: max-age=60` (or `maxAge`), answer `If-None-Match`
/// with 304, and arrive after `latency`. Pages can be broken at runtime to exercise error handling.
///
/// ```swift
/// let demo = try DemoFeedServer(latency: .zero)
/// defer { demo.stop() }
/// print(demo.template)          // http://127.0.0.1:PORT/api/items?page={page}
/// demo.brokenPages = [3: .invalidJSON]
/// ```
public final class DemoFeedServer: Sendable {
    /// The underlying server, for its request log and counters.
    public let server: HTTPServer
    /// The feed as served (dates already moved according to the timeline).
    public let feed: DemoFeed
    private let routes: FeedRoutes

    /// Starts serving.
    /// - Parameters:
    ///   - latency: how long each answer waits; use `.zero` in tests.
    ///   - failPage: a page that answers HTTP 500.
    ///   - timeline: `nil` (the default) moves all dates so the newest item is a few minutes old now, making
    ///     "3m ago" style ages look live; pass `.stored` for the exact file dates. Dates are fixed at start,
    ///     so ETags stay stable for the server's lifetime.
    ///   - feed: the content; nil is the built-in feed (`DemoFeed.load()`).
    ///   - maxAge: the seconds each page is fresh for (`Cache-Control: max-age`). A test that runs
    ///     riffle twice on the wall clock and expects the second run from the cache needs more than
    ///     the demo's minute: a busy test suite can hold a test that long between its two runs.
    public init(latency: Duration = .milliseconds(150), failPage: Int? = nil,
                timeline: DemoFeed.Timeline? = nil, feed: DemoFeed? = nil, maxAge: Int = 60) throws(DemoServerError) {
        let base: DemoFeed
        if let feed { base = feed } else { base = try DemoFeed.load() }
        let served = base.on(timeline ?? .endingAt(Date()))
        let routes = FeedRoutes(feed: served, latency: latency, failPage: failPage, maxAge: maxAge)
        self.routes = routes
        self.feed = served
        server = try HTTPServer { request in routes.respond(to: request) }
    }

    /// `http://127.0.0.1:PORT/api/items?page={page}`.
    public var template: String { "http://127.0.0.1:\(server.port)/api/items?page={page}" }

    /// The URL of 1-based `page`.
    public func url(page: Int) -> URL { server.url("/api/items?page=\(page)") }

    /// The delay before every answer; can be changed while serving.
    public var latency: Duration {
        get { routes.control.withLock { $0.latency } }
        set { routes.control.withLock { $0.latency = newValue } }
    }

    /// A page answering HTTP 500; can be changed while serving. Takes precedence over `brokenPages`.
    public var failPage: Int? {
        get { routes.control.withLock { $0.failPage } }
        set { routes.control.withLock { $0.failPage = newValue } }
    }

    /// Pages that misbehave, and how; can be changed while serving.
    public var brokenPages: [Int: Breakage] {
        get { routes.control.withLock { $0.brokenPages } }
        set { routes.control.withLock { $0.brokenPages = newValue } }
    }

    /// How many requests for `page` arrived (including 304s and failures).
    public func requestCount(page: Int) -> Int {
        routes.control.withLock { $0.pageRequests[page, default: 0] }
    }

    /// All requests the server received, pages or not.
    public var requestCount: Int { server.requestCount }

    /// Stops the server; see `HTTPServer.stop()`.
    public func stop() { server.stop() }
}
