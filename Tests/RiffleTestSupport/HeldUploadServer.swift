import Foundation
import RiffleHTTP

/// A server for upload progress on 127.0.0.1: it reads a request's head, then none of its body (made
/// larger than loopback's socket buffers) until the test has seen an upload step, or a minute has
/// passed; then it reads the body and answers `{"received": N}`. So a step reported only at the end
/// never opens the gate, however loaded the machine.
package final class HeldUploadServer: Sendable {
    /// Larger than what loopback's socket buffers hold, so the upload must wait for the server.
    package static let size = 48 * 1024 * 1024

    private let listener: ScriptedListener
    // Boxes (classes), so the listener's handler can hold them.
    private let stepSeen = CacheShared(false)
    private let timedOut = CacheShared(false)

    package init() throws {
        let stepSeen = stepSeen, timedOut = timedOut
        listener = try ScriptedListener { connection, _ in
            guard let head = connection.readHead() else { return }
            if head.lowercased().contains("expect: 100-continue") { connection.write("HTTP/1.1 100 Continue\r\n\r\n") }
            let deadline = ContinuousClock.now + .seconds(60)
            while !stepSeen.withLock({ $0 }) {
                guard ContinuousClock.now < deadline else { timedOut.withLock { $0 = true }; break }
                usleep(5_000)
            }
            let reply = #"{"received": \#(connection.readBody(length: Self.size))}"#
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(reply.utf8.count)\r\n\r\n\(reply)")
        }
    }

    /// Lets the body be read: the test saw an upload step.
    package func sawStep() { stepSeen.withLock { $0 = true } }

    /// Whether the server gave up waiting for a step.
    package var gaveUpWaiting: Bool { timedOut.withLock { $0 } }

    package func url(_ path: String) -> URL { listener.url(path) }

    /// A transport whose stall limit is beyond the gate: libcurl ends an upload that does not move for
    /// that limit (plus 10 s), and a missing step should fail as one, not as a timeout.
    package static func transport() -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.stallTimeout = .seconds(120)
        return CurlTransport(configuration)
    }
}
