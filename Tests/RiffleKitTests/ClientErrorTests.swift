import DemoServer
import Foundation
import Testing
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

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try HTTPServer { _ in .json("{}").delayed(by: .seconds(30)) }
        let client = makeClient(server) { $0.retry = .none }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/", timeout: 1)) }
        #expect(error == .timedOut(host: "127.0.0.1:\(server.port)"))
        #expect(error?.description == "127.0.0.1:\(server.port) timed out")
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

    @Test func urlErrorsMapToTheirCases() {
        let url = URL(string: "https://nowhere.invalid/x")!
        #expect(RiffleError(URLError(.cannotFindHost), url: url) == .dnsFailure(host: "nowhere.invalid"))
        #expect(RiffleError(URLError(.notConnectedToInternet), url: url) == .offline)
        #expect(RiffleError(URLError(.cancelled), url: url) == .cancelled)
        #expect(RiffleError(URLError(.networkConnectionLost), url: url)
            == .cannotConnect(host: "nowhere.invalid", reason: RiffleError.connectionLostReason))
    }
}
