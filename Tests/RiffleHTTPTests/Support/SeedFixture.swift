import DemoServer
import RiffleJSON
import RiffleTestSupport
@testable import RiffleHTTP

/// The seeds' fixture for RiffleHTTP's tests: the client's side of caching against a dictionary.
typealias SeedFixture = ServerFixture<InMemoryResponseCache>

extension ServerFixture where Cache == InMemoryResponseCache {
    convenience init(_ handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Response) throws {
        try self.init(cache: { _, _ in InMemoryResponseCache() }, handler: handler)
    }
}
