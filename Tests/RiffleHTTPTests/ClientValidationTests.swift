import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

@Suite("Client: shape validation against 127.0.0.1")
struct ClientValidationTests {
    let server: HTTPServer
    let client: Client
    static let shape: JSONShape = .object([
        "items": .array(.object(["id": .number, "title": .string, "url": .optional(.string)])),
        "next": .nullable(.string),
    ])

    init() throws {
        server = try HTTPServer { request in
            switch request.path {
            case "/good": .json(#"{"items": [{"id": 1, "title": "a"}, {"id": 2, "title": "b", "url": "u"}], "next": null}"#)
            case "/wrongType": .json(#"{"items": [{"id": 1, "title": "a"}, {"id": 2, "title": 5}], "next": null}"#)
            case "/missing": .json(#"{"items": [{"title": "a"}], "next": "p2"}"#)
            case "/null": .json(#"{"items": [{"id": 1, "title": null}], "next": null}"#)
            case "/notArray": .json(#"{"items": {"id": 1}, "next": null}"#)
            default: .json("{}")
            }
        }
        client = makeClient(server)
    }

    @Test func aMatchingAnswerPasses() async throws {
        let reply = try await client.send(Endpoint<JSONValue>(.get, "/good", shape: Self.shape))
        #expect(reply.value["items"]?.arrayValue?.count == 2)
    }

    static let failures: [(String, RiffleError)] = [
        ("/wrongType", .validation(path: "$.items[1].title", expected: "string", actual: "number")),
        ("/missing", .validation(path: "$.items[0].id", expected: "number", actual: "missing")),
        ("/null", .validation(path: "$.items[0].title", expected: "string", actual: "null")),
        ("/notArray", .validation(path: "$.items", expected: "array of object", actual: "object")),
    ]

    @Test(arguments: failures)
    func aMismatchNamesThePathTheExpectedAndTheActualType(path: String, expected: RiffleError) async throws {
        let error = await riffleError { () async throws(RiffleError) in
            try await client.send(Endpoint<JSONValue>(.get, .primary(path), shape: Self.shape))
        }
        #expect(error == expected)
        #expect(error?.description.contains("unexpected JSON at $.items") == true)
    }

    @Test func aDecodableMismatchIsAValidationError() async throws {
        struct Wrong: Decodable, Sendable { var missing: String }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<Wrong>(.get, "/good")) }
        guard case .validation(let path, let expected, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(path == "$")
        #expect(expected == "Wrong")
    }
}
