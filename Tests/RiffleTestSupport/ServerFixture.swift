import DemoServer
import Foundation
import RiffleHTTP

/// What a user of the seeds' request wrappers works against: a server on 127.0.0.1 answering by
/// `handler`, a cache made for a fresh folder (removed at the end) and a clock the test moves, and
/// clients for both. Each test target names its cache: `SeedFixture` is this with an in-memory cache
/// in RiffleHTTP's tests and with the real `ResponseCache` in RiffleCache's.
package final class ServerFixture<Cache: ResponseCaching>: Sendable {
    package let server: HTTPServer
    package let directory: URL
    package let clock = CacheTestClock()
    package let cache: Cache

    /// - Parameter makeCache: the cache, given the fixture's folder (not yet created) and clock.
    package init(cache makeCache: (_ directory: URL, _ clock: CacheTestClock) -> Cache,
                 handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Response) throws {
        server = try HTTPServer(handler: handler)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-seeds-\(UUID().uuidString)")
        cache = makeCache(directory, clock)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client for the server with the fixture's cache (unless `cached` is false).
    package func client(cached: Bool = true, _ configure: (inout Client.Configuration) -> Void = { _ in }) -> Client {
        let cache = self.cache
        return makeClient(server) { configuration in
            if cached { configuration.cache = cache }
            configure(&configuration)
        }
    }
}
