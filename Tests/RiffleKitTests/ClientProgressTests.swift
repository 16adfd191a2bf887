import DemoServer
import Foundation
import Synchronization
import Testing
@testable import RiffleKit

@Suite("Client: upload and download progress against 127.0.0.1")
struct ClientProgressTests {
    static let size = 5 * 1024 * 1024
    let server: HTTPServer

    init() throws {
        server = try HTTPServer { request in
            request.method == "POST" ? .json(#"{"received": \#(request.body.count)}"#)
                : HTTPServer.Response(headers: [("Content-Type", "application/octet-stream")],
                                      body: Data(repeating: 0x61, count: Self.size))
        }
    }

    static func checkRises(_ steps: [TransferProgress], to total: Int, minimumSteps: Int) {
        #expect(steps.count >= minimumSteps, "\(steps.map(\.completed))")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(steps.last?.completed == Int64(total))
        #expect(steps.last?.expected == Int64(total))
    }

    @Test func uploadProgressRisesToTheTotal() async throws {
        // A body larger than loopback's socket buffers, and a server that reads none of it until the
        // caller has seen a step: the steps must come while the body is still going, not only at the end.
        let size = 48 * 1024 * 1024
        let stepSeen = Mutex(false)
        let listener = try ScriptedListener { connection, _ in
            guard let head = connection.readHead() else { return }
            if head.lowercased().contains("expect: 100-continue") { connection.write("HTTP/1.1 100 Continue\r\n\r\n") }
            let deadline = ContinuousClock.now + .seconds(60)
            while !stepSeen.withLock({ $0 }), ContinuousClock.now < deadline { usleep(5_000) }
            let reply = #"{"received": \#(connection.readBody(length: size))}"#
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(reply.utf8.count)\r\n\r\n\(reply)")
        }
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.timeout = .seconds(120)
        configuration.retry = .none
        var transport = CurlTransport.Configuration()
        transport.stallTimeout = .seconds(120)  // libcurl would end the held-back upload before the gate
        let client = Client(configuration, transport: CurlTransport(transport))
        let body = RequestBody.raw(Data(repeating: 0x62, count: size), contentType: "application/octet-stream")
        let transfer = client.transfer(Endpoint<JSONValue>(.post, "/upload", body: body))
        var steps: [TransferProgress] = []
        for await step in transfer.progress where step.direction == .upload {
            steps.append(step)
            stepSeen.withLock { $0 = true }
        }
        let reply = try await transfer.response
        #expect(reply.value == ["received": .number(String(size))])
        #expect(steps.first.map { $0.completed < Int64(size) } == true, "a step before the end: \(steps.map(\.completed))")
        Self.checkRises(steps, to: size, minimumSteps: 2)
    }

    @Test func downloadProgressRisesToTheTotal() async throws {
        let client = makeClient(server)
        let transfer = client.transfer(Endpoint.data(.get, "/download"))
        var steps: [TransferProgress] = []
        for await step in transfer.progress where step.direction == .download { steps.append(step) }
        let reply = try await transfer.response
        #expect(reply.value.count == Self.size)
        Self.checkRises(steps, to: Self.size, minimumSteps: 2)
    }
}
