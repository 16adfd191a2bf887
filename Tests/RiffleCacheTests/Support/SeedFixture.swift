import DemoServer
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
@testable import RiffleCache

/// The seeds' fixture for RiffleCache's tests: a client over a real `ResponseCache` in the fixture's
/// folder, on the fixture's clock.
typealias SeedFixture = ServerFixture<ResponseCache>

extension ServerFixture where Cache == ResponseCache {
    convenience init(_ handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Response) throws {
        try self.init(cache: { directory, clock in ResponseCache(directory: directory, clock: clock.closure) }, handler: handler)
    }
}
