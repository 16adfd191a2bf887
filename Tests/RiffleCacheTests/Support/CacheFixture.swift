import DemoServer
import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
@testable import RiffleCache

/// What the test server answers, changeable while it serves.
struct CacheRoute: Sendable {
    var body = #"{"items": [{"id": 1, "title": "one"}]}"#
    var headers: [(name: String, value: String)] = [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]
    var status = 200
    var delay: Duration = .zero
    /// When set, every answer waits until the test signals it: an ordering, not a guessed delay.
    var gate: DispatchSemaphore?
}

/// A 127.0.0.1 server that answers every path with `route` (304 when `If-None-Match` names its ETag),
/// a fresh cache folder, a cache on it with an injected clock, and a log of its messages.
final class CacheFixture: Sendable {
    let server: HTTPServer
    let route: CacheShared<CacheRoute>
    let directory: URL
    let clock = CacheTestClock()
    let logLines = CacheShared<[String]>([])
    /// Budgets far beyond any test's waits: a held answer (`gate`) outlasts a saturated suite.
    let transport = patientTransport()
    let cache: ResponseCache

    init(configure: (inout ResponseCache.Configuration) -> Void = { _ in }) throws {
        let route = CacheShared(CacheRoute())
        self.route = route
        server = try HTTPServer { request in
            let current = route.withLock { $0 }
            current.gate?.waitForTest()
            let etag = current.headers.first { $0.name == "ETag" }?.value
            if current.status == 200, let etag, request.header("If-None-Match") == etag {
                return HTTPServer.Response(status: 304, headers: current.headers).delayed(by: current.delay)
            }
            return HTTPServer.Response.json(current.body, status: current.status, headers: current.headers).delayed(by: current.delay)
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-\(UUID().uuidString)")
        var configuration = ResponseCache.Configuration()
        let lines = logLines
        configuration.log = { line in lines.withLock { $0.append(line) } }
        configure(&configuration)
        cache = ResponseCache(directory: directory, configuration: configuration, clock: clock.closure)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func request(_ path: String = "/items", headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: server.url(path))
        for (name, value) in headers { request.headers[name] = value }
        return request
    }

    var fetch: @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse {
        let transport = transport
        return { request throws(RiffleError) in try await transport.send(request) }
    }

    /// One value through the cache with no extra validation.
    func get(_ request: HTTPRequest, _ policy: CachePolicy = .returnCacheElseLoad, maxAge: TimeInterval? = nil) async throws(RiffleError) -> CachedResponse {
        try await cache.response(for: request, policy: policy, maxAge: maxAge, validate: { _ in }, fetch: fetch)
    }

    /// Every file under the cache folder with its bytes (the WAL included).
    func allFiles() -> [(path: String, data: Data)] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var files: [(String, Data)] = []
        while let url = enumerator?.nextObject() as? URL {
            if let data = FileManager.default.contents(atPath: url.path) { files.append((url.path, data)) }
        }
        return files
    }

    var log: [String] { logLines.withLock { $0 } }
}
