import DemoServer
import Foundation
@testable import RiffleKit

/// What a user of the seeds' request wrappers works against: a server on 127.0.0.1 answering by
/// `handler`, a real `ResponseCache` in a fresh folder (removed at the end) with a clock the test
/// moves, and clients for both.
final class SeedFixture: Sendable {
    let server: HTTPServer
    let directory: URL
    let clock = CacheTestClock()
    let cache: ResponseCache

    init(_ handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Response) throws {
        server = try HTTPServer(handler: handler)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-seeds-\(UUID().uuidString)")
        cache = ResponseCache(directory: directory, clock: clock.closure)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client for the server with the fixture's cache (unless `cached` is false).
    func client(cached: Bool = true, _ configure: (inout Client.Configuration) -> Void = { _ in }) -> Client {
        let cache = self.cache
        return makeClient(server) { configuration in
            if cached { configuration.cache = cache }
            configure(&configuration)
        }
    }
}
