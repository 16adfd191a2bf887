import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

@Suite("Client: the user's JSONDecoder, raw bytes and JSON literals against 127.0.0.1")
struct ClientDecodingTests {
    /// A GitHub issue as its API names the fields: snake_case keys, ISO 8601 dates.
    struct Issue: Decodable, Sendable {
        var number: Int
        var title: String
        var htmlUrl: URL
        var createdAt: Date
        var user: User
        struct User: Decodable, Sendable { var login: String }
    }

    /// The first 16 bytes of a PNG (signature and IHDR header), a zero, invalid UTF-8 and CR LF: bytes
    /// that any text or JSON step on the way would change or reject.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                           0x00, 0xFF, 0xFE, 0xC3, 0x28, 0x0D, 0x0A, 0x7B, 0x22])

    let fixture: SeedFixture

    init() throws {
        let issues = try SavedResponse.data("github-issues.json")
        fixture = try SeedFixture { request in
            switch request.path {
            case "/repos/swiftlang/swift/issues": .json(issues)
            case "/logo.png": HTTPServer.Response(headers: [("Content-Type", "image/png")], body: Self.png)
            case "/untyped": HTTPServer.Response(body: Self.png)
            case "/half.json": .json(#"{"code": 200, "data": [1, 2"#)
            case "/base64": .json(#""aGVsbG8sIOS4lueVjA==""#)
            case "/event": .json(#"{"kind": "push", "payload": {"ref": "main", "size": 3, "forced": false, "head": null}}"#)
            default: .json("{}")
            }
        }
    }

    static func snakeCase() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func theClientsDecoderReadsSnakeCaseAndDates() async throws {
        let client = fixture.client(cached: false) { $0.decoder = Self.snakeCase() }
        let issues = try await client.send(Endpoint<[Issue]>(.get, "/repos/swiftlang/swift/issues")).value
        #expect(issues.count == 4)
        #expect(issues[0].number == 78213)
        #expect(issues[0].htmlUrl.absoluteString == "https://github.com/swiftlang/swift/issues/78213")
        #expect(issues[0].user.login == "mariadelacruz-dev")
        // "2024-11-28T09:41:17Z", worked out apart from Foundation.
        #expect(issues[0].createdAt.timeIntervalSince1970 == 1_732_786_877)
    }

    @Test func anEndpointsDecoderWinsOverTheClients() async throws {
        let client = fixture.client(cached: false)   // the default JSONDecoder: camelCase keys, dates as numbers
        let plain = await riffleError { () async throws(RiffleError) in
            try await client.send(Endpoint<[Issue]>(.get, "/repos/swiftlang/swift/issues"))
        }
        guard case .validation(let path, let expected, _) = plain else {
            Testing.Issue.record("expected a validation error, got \(String(describing: plain))")
            return
        }
        #expect(path == "$" && expected == "Array<Issue>")
        let issues = try await client.send(Endpoint<[Issue]>(.get, "/repos/swiftlang/swift/issues", decoder: Self.snakeCase())).value
        #expect(issues.map(\.number).first == 78213)
    }

    @Test func bytesComeBackUntouchedAndCached() async throws {
        let client = fixture.client { $0.envelope = .codeData }   // an envelope and a cache: neither touches bytes
        for path in ["/logo.png", "/untyped", "/half.json"] {
            let first = try await client.send(.bytes(.get, "\(raw: path)"))
            let again = try await client.send(.bytes(.get, "\(raw: path)"))
            let expected = path == "/half.json" ? Data(#"{"code": 200, "data": [1, 2"#.utf8) : Self.png
            #expect(first.value == expected, "\(path)")
            #expect(first.source == .network && again.source == .cache && again.value == expected, "\(path)")
        }
        #expect(fixture.server.requestCount == 3)
        #expect(fixture.server.requests.allSatisfy { $0.header("accept") == "*/*" })
    }

    @Test func aJSONDataEndpointDecodesBase64AndPointsAtBytesForAFile() async throws {
        let client = fixture.client(cached: false)
        #expect(try await client.send(Endpoint<Data>(.get, "/base64")).value == Data("hello, 世界".utf8))
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<Data>(.get, "/logo.png")) }
        guard case .invalidJSON(_, let reason) = error else {
            Testing.Issue.record("expected invalidJSON, got \(String(describing: error))")
            return
        }
        #expect(reason.hasSuffix("(Endpoint.bytes reads a body as raw bytes)"))
    }

    @Test func aJSONValueInsideADecodableKeepsItsValues() async throws {
        struct Event: Decodable, Sendable { var kind: String; var payload: JSONValue }
        let event = try await fixture.client(cached: false).send(Endpoint<Event>(.get, "/event")).value
        #expect(event.kind == "push")
        #expect(event.payload["ref"] == "main" && event.payload["size"] == 3 && event.payload["forced"] == false)
        #expect(event.payload["head"] == .null)
        #expect(event.payload["missing"] == nil)
    }

    @Test func aNullIsWrittenDotNullAndKeepsItsKey() {
        let body: JSONValue = ["deleted_at": .null, "tags": [1, .null]]
        #expect(body["deleted_at"] == .null)
        #expect(String(decoding: JSONWriter.data(body), as: UTF8.self) == #"{"deleted_at":null,"tags":[1,null]}"#)
    }

    @Test func getAndPostFactoriesAreTheInitializer() async throws {
        let client = fixture.client(cached: false)
        _ = try await client.send(Endpoint<JSONValue>.get("/a", query: ["q": "x y"]))
        _ = try await client.send(Endpoint<JSONValue>.post("/b", body: .json(["n": 1])))
        let requests = fixture.server.requests
        #expect(requests.map(\.method) == ["GET", "POST"])
        #expect(requests[0].query("q") == "x y" && requests[1].body == Data(#"{"n":1}"#.utf8))
    }
}
