import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

@Suite("Client: processors, envelopes and payload transforms against 127.0.0.1")
struct ClientProcessingTests {
    let server: HTTPServer

    init() throws {
        server = try HTTPServer { request in
            switch request.path {
            case "/ok": .json(#"{"ok": true, "result": {"n": 1}}"#)
            case "/code": .json(#"{"code": 200, "data": [1, 2]}"#)
            case "/status": .json(#"{"status": 1, "name": "riffle"}"#)
            case "/fail": .json(#"{"ok": false, "error": "rate limited"}"#)
            case "/fail400": .json(#"{"code": 400, "message": "bad page"}"#, status: 400)
            case "/count": .json(#"{"ok": true, "result": {"count": 7, "items": []}}"#)
            default: .json("{}")
            }
        }
    }

    @Test func processorsRunInOrderOnEveryRequest() async throws {
        let client = makeClient(server) {
            $0.processors = [
                .queryItem("version", "1.0.0"),
                .queryItem("second", "2"),
                .header("X-Token", fromEnvironment: "RIFFLE_TEST_TOKEN", prefix: "Bearer ",
                        environment: ["RIFFLE_TEST_TOKEN": "abc"]),
                .header("X-Unset", fromEnvironment: "RIFFLE_NOT_SET", environment: [:]),
            ]
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "/plain", query: ["page": "2"]))
        let received = try #require(server.requests.first)
        #expect(received.queryItems.map(\.name) == ["page", "version", "second"])
        #expect(received.query("version") == "1.0.0")
        #expect(received.header("x-token") == "Bearer abc")
        #expect(received.header("x-unset") == nil)
    }

    /// A `+` in an endpoint's path is a space to the server and a `%2B` a plus, whatever the client
    /// adds after them; what it adds (the endpoint's query, a processor's item) reads back whole.
    @Test func theQueryReachesTheServerAsWrittenWhateverIsAdded() async throws {
        let client = makeClient(server) { $0.processors = [.queryItem("v", "1+1 & 2")] }
        _ = try await client.send(Endpoint<JSONValue>(.get, "/search?q=swift+ui&tag=c%2B%2B", query: ["lang": "c++"]))
        let received = try #require(server.requests.first)
        #expect(received.queryItems.map { "\($0.name)=\($0.value)" } == ["q=swift ui", "tag=c++", "lang=c++", "v=1+1 & 2"],
                "sent: \(received.target)")
    }

    @Test func credentialProcessorsMarkWhatTheyAddAndNothingElse() throws {
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1:1/a?page=2&key=old")!)
        request.headers["X-Plain"] = "p"
        // A credential processor that adds nothing (the header is set already) marks nothing.
        try RequestProcessor.header("X-Plain", "other", isCredential: true).apply(to: &request)
        #expect(request.credentialHeaders.isEmpty && request.credentialQueryItems.isEmpty)
        try RequestProcessor.queryItem("token", "s3cret", isCredential: true).apply(to: &request)
        #expect(request.credentialQueryItems == ["token"])
        #expect(request.redactedURL == "http://127.0.0.1:1/a?page=2&key=old&token=REDACTED")
        // A second value for a parameter the URL had is a credential too; the parameters it had are not.
        try RequestProcessor.queryItem("key", "new", isCredential: true).apply(to: &request)
        #expect(request.credentialQueryItems == ["token", "key"])
        try RequestProcessor.header("X-Key", "k", isCredential: true).apply(to: &request)
        #expect(request.credentialHeaders == ["x-key"])
        // What a processor that is not a credential adds is not marked.
        try RequestProcessor.queryItem("version", "1").apply(to: &request)
        try RequestProcessor.header("X-Version", "1").apply(to: &request)
        #expect(request.credentialQueryItems == ["token", "key"] && request.credentialHeaders == ["x-key"])
    }

    @Test func anEndpointCanOptOutOfProcessors() async throws {
        let client = makeClient(server) { $0.processors = [.queryItem("version", "1.0.0"), .header("X-Key", "k")] }
        var endpoint = Endpoint<JSONValue>(.get, "/plain")
        endpoint.processing = .none
        _ = try await client.send(endpoint)
        let received = try #require(server.requests.first)
        #expect(received.query("version") == nil)
        #expect(received.header("x-key") == nil)
    }

    static let envelopes: [(String, EnvelopeRule, JSONValue)] = [
        ("/ok", .okResult, ["n": 1]),
        ("/code", .codeData, [1, 2]),
        ("/status", .statusFlag, ["status": 1, "name": "riffle"]),
    ]

    @Test(arguments: envelopes)
    func eachEnvelopeShapeUnwrapsToItsPayload(path: String, rule: EnvelopeRule, payload: JSONValue) async throws {
        let client = makeClient(server) { $0.envelope = rule }
        let reply = try await client.send(Endpoint<JSONValue>(.get, .primary(path)))
        #expect(reply.value == payload)
        #expect(reply.source == .network)
        #expect(reply.status == 200)
    }

    @Test func aFailureEnvelopeBecomesAnErrorWithTheServersMessage() async throws {
        let client = makeClient(server) { $0.envelope = .okResult }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/fail")) }
        #expect(error == .envelope(message: "rate limited"))
        #expect(error?.description == "server error: rate limited")
    }

    @Test func aFailureEnvelopeOnAnErrorStatusStillCarriesTheMessage() async throws {
        let client = makeClient(server) { $0.envelope = .codeData }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/fail400")) }
        #expect(error == .envelope(message: "bad page"))
    }

    @Test func anEndpointCanOptOutOfTheEnvelope() async throws {
        let client = makeClient(server) { $0.envelope = .okResult }
        var endpoint = Endpoint<JSONValue>(.get, "/code")
        endpoint.envelope = .none
        #expect(try await client.send(endpoint).value["code"] == 200)
        endpoint.envelope = .rule(.codeData)
        #expect(try await client.send(endpoint).value == [1, 2])
    }

    @Test func anEndpointCanTakeCountOutOfThePayload() async throws {
        struct Count: Decodable, Sendable, Equatable { var count: Int }
        let client = makeClient(server) { $0.envelope = .okResult }
        let count = Endpoint<Int>(.get, "/count").transformingPayload { payload throws(RiffleError) in
            guard let n = payload["count"] else { throw .validation(path: "$.count", expected: "number", actual: "missing") }
            return n
        }
        #expect(try await client.send(count).value == 7)
        let decoded = try await client.send(Endpoint<Count>(.get, "/count"))
        #expect(decoded.value == Count(count: 7))
        let transformed = Endpoint<JSONValue>(.get, "/count").transformingPayload { $0["count"] ?? .null }
        #expect(try await client.send(transformed).value == 7)
    }
}
