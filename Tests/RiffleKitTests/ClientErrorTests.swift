import DemoServer
import Foundation
import Testing
@testable import RiffleHTTP
@testable import RiffleKit

@Suite("Client: each error produced for real on 127.0.0.1")
struct ClientErrorTests {
    @Test func aClosedPortCannotConnect() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let url = server.url("/x")
        server.stop()
        let client = makeClient(server) { $0.retry = .none }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, .url(url))) }
        #expect(error == .cannotConnect(host: "127.0.0.1:\(server.port)", reason: "connection refused"))
    }

    @Test func aServerThatNeverAnswersTimesOutWithinTheBudget() async throws {
        let server = try HTTPServer { _ in .json("{}").delayed(by: .seconds(30)) }
        let client = makeClient(server)
        let start = ContinuousClock.now
        let error = await riffleError { () async throws(RiffleError) in
            try await client.send(Endpoint<JSONValue>(.get, "/", timeout: .milliseconds(1500)))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error == .timedOut(host: "127.0.0.1:\(server.port)"))
        #expect(error?.description == "127.0.0.1:\(server.port) timed out")
        // The budget covers the retries: the GET is not tried again once it is spent.
        #expect(elapsed >= .milliseconds(1400) && elapsed < .seconds(25), "took \(elapsed)")  // the server waits 30 s
        #expect(server.requestCount == 1)
    }

    @Test func invalidJSONNamesTheByteOffset() async throws {
        let server = try HTTPServer { _ in .json(#"{"a": 1,, "b": 2}"#) }
        let error = await riffleError { () async throws(RiffleError) in try await makeClient(server).send(Endpoint<JSONValue>(.get, "/")) }
        guard case .invalidJSON(let offset, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(offset == 8)
    }

    @Test func httpsAgainstAPlainHTTPPortIsATLSError() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let plain = try ScriptedListener.plainHTTP()
        let url = URL(string: "https://127.0.0.1:\(plain.port)/")!
        let error = await riffleError { () async throws(RiffleError) in
            try await makeClient(server) { $0.retry = .none }.send(Endpoint<JSONValue>(.get, .url(url)))
        }
        guard case .tls(let host, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(host == "127.0.0.1:\(plain.port)")
    }

    @Test func anErrorStatusCarriesTheCodeAndAShortExcerpt() async throws {
        let server = try HTTPServer { _ in .text(String(repeating: "gone\n", count: 100), status: 410) }
        let error = await riffleError { () async throws(RiffleError) in try await makeClient(server).send(Endpoint<JSONValue>(.get, "/")) }
        guard case .httpStatus(410, let excerpt) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(excerpt.hasPrefix("gone gone"))
        #expect(excerpt.count <= 101)
        #expect(error?.description.hasPrefix("HTTP 410 Gone: gone") == true)
    }

    @Test func libcurlFailuresMapToOneErrorForEveryHost() {
        let url = URL(string: "https://nowhere.invalid:8443/x")!
        let map = { (code: Int32, errno: Int32) in RiffleError.curl(code: code, osError: errno, detail: "", url: url) }
        #expect(map(6, 0) == .dnsFailure(host: "nowhere.invalid"))
        #expect(map(7, 111) == .cannotConnect(host: "nowhere.invalid:8443", reason: "connection refused"))
        #expect(map(7, 101) == .offline)  // ENETUNREACH
        #expect(map(7, 113) == .offline)  // EHOSTUNREACH
        #expect(map(28, 0) == .timedOut(host: "nowhere.invalid:8443"))
        #expect(map(56, 104) == .cannotConnect(host: "nowhere.invalid:8443", reason: RiffleError.connectionLostReason))
        #expect(map(60, 0) == .tls(host: "nowhere.invalid:8443", reason: "secure connection failed"))
        #expect(map(42, 0) == .cancelled)
        for code: Int32 in [6, 7, 28, 35, 56, 60] { #expect(map(code, 111).isConnectivityFailure, "code \(code)") }
        #expect(!map(61, 0).isConnectivityFailure)
    }
}
