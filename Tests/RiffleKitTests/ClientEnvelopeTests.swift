import DemoServer
import Foundation
import Testing
@testable import RiffleHTTP
@testable import RiffleKit

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

    @Test func aProxysErrorPageStillFallsBackToTheStaleEntry() async throws {
        // Stale-if-error is for the network's failures: an HTML 500 from a proxy serves the stored answer.
        let fixture = try SeedFixture { request in
            request.header("x-fail") == nil ? .json(#"{"code": 200, "data": [1]}"#) : .text("<html>down</html>", status: 502)
        }
        let client = fixture.client { $0.envelope = .codeData; $0.retry = .none }
        _ = try await client.send(Endpoint<JSONValue>(.get, "/list", maxAge: 60))
        fixture.clock.advance(120)
        let reply = try await client.send(Endpoint<JSONValue>(.get, "/list", headers: ["X-Fail": "1"], maxAge: 60))
        // The header is not part of the key: the same entry answers, marked stale.
        #expect(reply.source == .stale)
        #expect(reply.value == [1])
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

@Suite("A feed's envelope is one of the client's envelope rules")
struct FeedEnvelopeTests {
    @Test func feedsJSONEnvelopesBecomeRulesThatPassWithoutTheFlag() throws {
        let text = #"""
        {"feeds": {
          "slack": {"url": "https://slack.com/api/conversations.list?page={page}", "envelope": {"success": "ok", "error": "error.message"}},
          "coded": {"url": "https://api.example.com/list?page={page}", "envelope": {"success": "code", "value": 200}}
        }}
        """#
        let catalog = try FeedCatalog.parse(Data(text.utf8), file: "feeds.json")
        let slack = try #require(catalog["slack"]?.envelope)
        #expect(slack == EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: [], messagePaths: [["error", "message"]],
                                      missingFlag: .success))
        #expect(try slack.unwrap(["items": []]) == ["items": []])
        #expect(throws: RiffleError.envelope(message: "nope")) { try slack.unwrap(["ok": false, "error": ["message": "nope"]]) }
        let coded = try #require(catalog["coded"]?.envelope)
        #expect(throws: RiffleError.envelope(message: "busy")) { try coded.unwrap(["code": "503", "msg": "busy"]) }
        #expect(try coded.unwrap(["code": "200", "data": [1]]) == ["code": "200", "data": [1]])
    }

    @Test func aPageWithAFailureEnvelopeOnAnErrorStatusShowsTheServersMessage() async throws {
        let server = try HTTPServer { _ in .json(#"{"ok": false, "error": {"message": "invalid_auth"}}"#, status: 401) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-envelope-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rule = EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: [], messagePaths: [["error", "message"]], missingFlag: .success)
        let feed = try Feed(template: server.baseURL.absoluteString + "/list?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            envelope: rule)
        let loader = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
        await #expect(throws: RiffleError.envelope(message: "invalid_auth")) { try await loader.load(1) }
    }
}
