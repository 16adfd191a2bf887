import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

@Suite("Envelopes as the seeds read them, against 127.0.0.1")
struct ClientEnvelopeTests {
    let fixture: SeedFixture

    init() throws {
        fixture = try SeedFixture { request in
            switch request.path {
            case "/status-string": .json(#"{"status": "1", "name": "riffle"}"#)
            case "/status-true": .json(#"{"status": true, "name": "riffle"}"#)
            case "/status-zero-string": .json(#"{"status": "0", "msg": "登录已过期"}"#)
            case "/code-string": .json(#"{"code": "200", "data": [1, 2]}"#)
            case "/code-float": .json(#"{"code": 200.0, "data": [3]}"#)
            case "/ok-one": .json(#"{"ok": 1, "result": {"n": 1}}"#)
            case "/code-500-empty": .json(#"{"code": 500, "message": ""}"#)
            case "/code-500-null": .json(#"{"code": "500", "message": null, "msg": "  "}"#)
            case "/bad-request": .json(#"{"code": 400, "message": "参数错误"}"#, status: 400)
            case "/bad-request-empty": .json(#"{"code": 400, "message": ""}"#, status: 400)
            case "/server-error": .json(#"{"code": 500, "message": "数据库维护中"}"#, status: 500)
            case "/proxy-error": .text("<html>bad gateway</html>", status: 500)
            default: .json("{}")
            }
        }
    }

    static let passing: [(String, EnvelopeRule, JSONValue)] = [
        ("/status-string", .statusFlag, ["status": "1", "name": "riffle"]),
        ("/status-true", .statusFlag, ["status": true, "name": "riffle"]),
        ("/code-string", .codeData, [1, 2]),
        ("/code-float", .codeData, [3]),
        ("/ok-one", .okResult, ["n": 1]),
    ]

    @Test(arguments: passing)
    func flagsMatchAsTheSeedsCompareThem(path: String, rule: EnvelopeRule, payload: JSONValue) async throws {
        let client = fixture.client(cached: false) { $0.envelope = rule }
        #expect(try await client.send(Endpoint<JSONValue>(.get, .primary(path))).value == payload)
    }

    @Test func aStringZeroFlagIsAFailureWithTheServersMessage() async throws {
        let client = fixture.client(cached: false) { $0.envelope = .statusFlag }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/status-zero-string")) }
        #expect(error == .envelope(message: "登录已过期"))
    }

    @Test func anEmptyOrNullMessageFallsBackToTheFlag() async throws {
        let client = fixture.client(cached: false) { $0.envelope = .codeData }
        let empty = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/code-500-empty")) }
        #expect(empty?.description == "server error: code is 500")
        let null = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/code-500-null")) }
        #expect(null?.description == #"server error: code is "500""#)
    }

    @Test(arguments: [false, true])
    func theServersMessageWinsOnAnErrorStatusWithOrWithoutACache(cached: Bool) async throws {
        let client = fixture.client(cached: cached) { $0.envelope = .codeData; $0.retry = .none }
        for method in [HTTPMethod.get, .post] {
            let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(method, "/bad-request")) }
            #expect(error?.description == "server error: 参数错误", "\(method)")
        }
        let server = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/server-error")) }
        #expect(server == .envelope(message: "数据库维护中"))
    }

    @Test(arguments: [false, true])
    func anErrorStatusWithoutAMessageStaysTheStatus(cached: Bool) async throws {
        let client = fixture.client(cached: cached) { $0.envelope = .codeData; $0.retry = .none }
        let empty = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/bad-request-empty")) }
        #expect(empty.map { if case .httpStatus(400, _) = $0 { true } else { false } } == true, "\(String(describing: empty))")
        let proxy = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/proxy-error")) }
        #expect(proxy.map { if case .httpStatus(500, _) = $0 { true } else { false } } == true, "\(String(describing: proxy))")
    }

    @Test func flagKeysCompareByValue() {
        #expect(EnvelopeRule.flagKey(true) == EnvelopeRule.flagKey("1"))
        #expect(EnvelopeRule.flagKey(1) == EnvelopeRule.flagKey(" 1 "))
        #expect(EnvelopeRule.flagKey(false) == EnvelopeRule.flagKey("0"))
        #expect(EnvelopeRule.flagKey(200) == EnvelopeRule.flagKey("200"))
        #expect(EnvelopeRule.flagKey("true") == EnvelopeRule.flagKey(1))
        #expect(EnvelopeRule.flagKey("success") != EnvelopeRule.flagKey("Success"))
        #expect(EnvelopeRule.flagKey(2) != EnvelopeRule.flagKey(true))
        #expect(EnvelopeRule.flagKey(.null) != EnvelopeRule.flagKey(0))
    }
}
