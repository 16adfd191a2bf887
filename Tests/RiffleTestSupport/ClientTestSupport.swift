import DemoServer
import Foundation
import Synchronization
import RiffleHTTP

/// Records the delays the client chose instead of waiting them, so retry tests need no wall time.
package final class RecordingSleeper: Sendable {
    private let delays = Mutex<[Duration]>([])
    package init() {}
    package var recorded: [Duration] { delays.withLock { $0 } }
    package var sleep: @Sendable (Duration) async throws -> Void {
        { [self] duration in delays.withLock { $0.append(duration) } }
    }
}

/// A client for `server` with no environment plugins and a recording sleeper.
package func makeClient(_ server: HTTPServer, sleeper: RecordingSleeper = RecordingSleeper(), transport: CurlTransport = patientTransport(),
                _ configure: (inout Client.Configuration) -> Void = { _ in }) -> Client {
    var configuration = Client.Configuration(baseURL: server.baseURL, environment: [:])
    configuration.sleep = sleeper.sleep
    // Far beyond any test's own waits: on a loaded machine the cooperative pool can be busy for seconds,
    // and only the tests of the budget itself should ever meet it.
    configuration.timeout = .seconds(120)
    configure(&configuration)
    return Client(configuration, transport: transport)
}

/// A transport whose budgets (the whole transfer's, and the stall's: 20 s by default) outlast any
/// wait of a busy suite, so a request held by a test's server ends only as the test ends it.
package func patientTransport() -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    (configuration.timeout, configuration.stallTimeout) = (patience * 2, patience * 2)
    return CurlTransport(configuration)
}

/// Runs `body` and returns the `RiffleError` it threw, or nil.
package func riffleError<T>(_ body: () async throws(RiffleError) -> T) async -> RiffleError? {
    do { _ = try await body(); return nil } catch { return error }
}
