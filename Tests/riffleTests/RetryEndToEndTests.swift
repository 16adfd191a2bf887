import DemoServer
import Foundation
import Synchronization
import Testing

@Suite("riffle says when it will retry (tmux)", .serialized)
struct RetryEndToEndTests {
    @Test func aTooManyRequestsAnswerIsRetriedAfterItsRetryAfterAndSaidSo() async throws {
        // Given a server that answers the first request with 429 and "Retry-After: 2", then the page
        let hits = Mutex(0)
        let server = try HTTPServer { _ in
            let count = hits.withLock { $0 += 1; return $0 }
            return count == 1 ? .json("{}", status: 429, headers: [("Retry-After", "2")]) : .json(#"[{"title": "arrived after all"}]"#)
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        // When riffle opens it
        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, server.baseURL.absoluteString + "/p/{page}"],
                                      environment: ["LANG": "C.UTF-8"])
        // Then the wait is said on screen, and the page arrives after it
        #expect(await session.waitFor { session.screen().contains("retrying in 2 s (HTTP 429") }, "\(session.screen())")
        #expect(await session.waitFor { session.screen().contains("arrived after all") }, "\(session.screen())")
        #expect(server.requests.filter { $0.path == "/p/1" }.count == 2)
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil })
    }
}
