import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

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
        let server = try HeldUploadServer()
        let size = HeldUploadServer.size
        var configuration = Client.Configuration(baseURL: server.url("/"), environment: [:])
        configuration.timeout = .seconds(120)  // beyond the server's wait
        configuration.retry = .none
        let client = Client(configuration, transport: HeldUploadServer.transport())
        let body = RequestBody.raw(Data(repeating: 0x62, count: size), contentType: "application/octet-stream")
        let transfer = client.transfer(Endpoint<JSONValue>(.post, "/upload", body: body))
        var steps: [TransferProgress] = []
        for await step in transfer.progress where step.direction == .upload {
            steps.append(step)
            server.sawStep()
        }
        let reply = try await transfer.response
        #expect(reply.value == ["received": .number(String(size))])
        #expect(!server.gaveUpWaiting, "no upload step before the body was read")
        #expect(steps.first.map { $0.completed < Int64(size) } == true, "a step before the end: \(steps.map(\.completed))")
        Self.checkRises(steps, to: size, minimumSteps: 2)
    }

    @Test func downloadProgressRisesToTheTotal() async throws {
        let client = makeClient(server)
        let transfer = client.transfer(Endpoint.bytes(.get, "/download"))
        var steps: [TransferProgress] = []
        for await step in transfer.progress where step.direction == .download { steps.append(step) }
        let reply = try await transfer.response
        #expect(reply.value.count == Self.size)
        Self.checkRises(steps, to: Self.size, minimumSteps: 2)
    }
}
