import Foundation
import RiffleTestSupport
import Testing
@testable import DemoServer

/// The server's threads are bounded and idle connections do not pile up: thousands of idle
/// keep-alive connections once meant thousands of threads inside the browser's process.
@Suite("HTTPServer: a bounded pool of workers and an idle timeout", .offThePool)
struct HTTPServerLimitsTests {
    /// The threads of `server` alive now, counted by the name they carry in `/proc/self/task/*/comm`.
    static func threads(of server: HTTPServer) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return name?.trimmingCharacters(in: .newlines) == server.threadName
        }.count
    }

    /// Polls `condition` every 10 ms for up to `patience`.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + patience
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    @Test func idleConnectionsCostNoThread() throws {
        let server = try HTTPServer(workers: 4) { _ in .text("ok") }
        defer { server.stop() }
        let idle = (0..<200).compactMap { _ in RawClient(port: server.port) }
        #expect(idle.count == 200)
        #expect(Self.waitUntil { server.connectionCount == 200 }, "accepted \(server.connectionCount)")

        #expect(Self.threads(of: server) == 1, "only the thread that watches them")
        #expect(try TestHTTP.get(server.url("/")).status == 200, "and it still answers")
        #expect(Self.threads(of: server) == 2, "one worker for that request")
        #expect(idle.allSatisfy { !$0.wasClosedByServer(within: .milliseconds(1)) })
    }

    @Test func busyConnectionsNeverGetMoreWorkersThanTheBound() throws {
        let server = try HTTPServer(workers: 4) { _ in .text("ok").delayed(by: .milliseconds(50)) }
        defer { server.stop() }
        let clients = (0..<24).compactMap { _ in RawClient(port: server.port) }
        for client in clients { client.send(TestHTTP.request("GET", "/")) }
        var most = 0
        var answered = 0
        for client in clients {
            most = max(most, Self.threads(of: server))
            if client.readReply()?.status == 200 { answered += 1 }
        }
        #expect(answered == 24)
        #expect(server.maxConcurrentRequests <= 4)
        #expect(most <= 5, "four workers and the watcher, got \(most)")
        #expect(Self.threads(of: server) <= 5)
    }

    @Test func idleConnectionsAreClosedAfterTheTimeout() throws {
        let server = try HTTPServer(idleTimeout: .milliseconds(300)) { _ in .text("ok") }
        defer { server.stop() }
        let started = ContinuousClock.now
        let silent = try #require(RawClient(port: server.port))
        let used = try #require(RawClient(port: server.port))
        used.send(TestHTTP.request("GET", "/"))
        #expect(used.readReply()?.status == 200)

        #expect(silent.wasClosedByServer(), "a connection that never sent a request")
        #expect(used.wasClosedByServer(), "a keep-alive connection after its answer")
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(try TestHTTP.get(server.url("/")).status == 200, "new connections are still served")
    }

    @Test func aTricklingRequestDoesNotStretchTheTimeout() throws {
        let server = try HTTPServer(idleTimeout: .milliseconds(300)) { _ in .text("ok") }
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))
        let started = ContinuousClock.now
        let head = Array("GET /slow HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "a", count: 100))\r\n\r\n".utf8)
        // One byte every 100 ms would take over 13 s to finish the head; the sending stops once the
        // server has closed, and the test waits for it before the socket goes.
        let fd = client.fd
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            for byte in head {
                var byte = byte
                guard send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                usleep(100_000)
            }
        }.start()
        #expect(client.wasClosedByServer())
        #expect(ContinuousClock.now - started < .seconds(10), "closed at the timeout, not when the head was done")
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(server.requestCount == 0)
    }

    @Test func atTheConnectionLimitTheLongestIdleMakesRoom() throws {
        let server = try HTTPServer(maxConnections: 8) { _ in .text("ok") }
        defer { server.stop() }
        let idle = (0..<8).compactMap { _ in RawClient(port: server.port) }
        #expect(Self.waitUntil { server.connectionCount == 8 })

        #expect(try TestHTTP.get(server.url("/")).status == 200)
        #expect(idle[0].wasClosedByServer(), "the oldest idle connection was closed for the new one")
        #expect(!idle[7].wasClosedByServer(within: .milliseconds(50)))
    }
}
