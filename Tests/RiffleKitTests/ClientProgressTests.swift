import DemoServer
import Foundation
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

    /// - Parameter minimumSteps: libcurl reports upload bytes from its progress callback; on a loaded
    ///   machine a loopback upload to a server that reads at once can finish between two callbacks, so
    ///   uploads may show only the final total here (`CurlTransportTests` holds the body back to see the
    ///   steps before it). Received data arrives in many chunks.
    static func checkRises(_ steps: [TransferProgress], to total: Int, minimumSteps: Int) {
        #expect(steps.count >= minimumSteps)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(steps.last?.completed == Int64(total))
        #expect(steps.last?.expected == Int64(total))
    }

    @Test func uploadProgressRisesToTheTotal() async throws {
        let client = makeClient(server)
        let body = RequestBody.raw(Data(repeating: 0x62, count: Self.size), contentType: "application/octet-stream")
        let transfer = client.transfer(Endpoint<JSONValue>(.post, "/upload", body: body))
        var steps: [TransferProgress] = []
        for await step in transfer.progress where step.direction == .upload { steps.append(step) }
        let reply = try await transfer.response
        #expect(reply.value == ["received": .number(String(Self.size))])
        Self.checkRises(steps, to: Self.size, minimumSteps: 1)
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
