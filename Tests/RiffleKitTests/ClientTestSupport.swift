import DemoServer
import Foundation
import Synchronization
@testable import RiffleKit

/// Records the delays the client chose instead of waiting them, so retry tests need no wall time.
final class RecordingSleeper: Sendable {
    private let delays = Mutex<[Duration]>([])
    var recorded: [Duration] { delays.withLock { $0 } }
    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] duration in delays.withLock { $0.append(duration) } }
    }
}

/// A client for `server` with no environment plugins and a recording sleeper.
func makeClient(_ server: HTTPServer, sleeper: RecordingSleeper = RecordingSleeper(),
                _ configure: (inout Client.Configuration) -> Void = { _ in }) -> Client {
    var configuration = Client.Configuration(baseURL: server.baseURL, environment: [:])
    configuration.sleep = sleeper.sleep
    configuration.timeout = 5
    configure(&configuration)
    return Client(configuration)
}

/// Runs `body` and returns the `RiffleError` it threw, or nil.
func riffleError<T>(_ body: () async throws(RiffleError) -> T) async -> RiffleError? {
    do { _ = try await body(); return nil } catch { return error }
}
