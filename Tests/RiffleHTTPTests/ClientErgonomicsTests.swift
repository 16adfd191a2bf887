import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

@Suite("API ergonomics a seed user reaches for, against 127.0.0.1")
struct ClientErgonomicsTests {
    let fixture: SeedFixture

    init() throws {
        fixture = try SeedFixture { request in
            // Echoes who asked (a token's first five letters only), so a test can tell whose answer it got.
            .json(#"{"code": 200.0, "target": "\#(request.target)", "user": "\#(request.header("token").map { String($0.prefix(5)) } ?? request.header("x-user") ?? "-")", "count": 3}"#)
        }
    }

    @Test func interpolatedValuesArePathSegments() async throws {
        let client = fixture.client(cached: false)
        let id = 42
        let name = "a b/c?d"
        let version = "v2/beta"
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/users/\(id)")).value["target"] == "/users/42")
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/users/\(name)/repos")).value["target"] == "/users/a%20b%2Fc%3Fd/repos")
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/tags/\("日本")")).value["target"] == "/tags/%E6%97%A5%E6%9C%AC")
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/\(raw: version)/items")).value["target"] == "/v2/beta/items")
        #expect(Endpoint<JSONValue>(.get, "/users/\(id)").target == .primary("/users/42"))
    }

    @Test func cacheStatisticsAndClearingAreTheClients() async throws {
        let client = fixture.client()
        _ = try await client.send(Endpoint<JSONValue>(.get, "/a"))
        _ = try await client.send(Endpoint<JSONValue>(.get, "/b"))
        let statistics = try #require(try await client.cacheStatistics())
        #expect(statistics.entryCount == 2)
        #expect(statistics.totalSize > 100)
        try await client.clearCache()
        #expect(try await client.cacheStatistics()?.entryCount == 0)
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/a")).source == .network)
        #expect(fixture.server.requestCount == 3)
        let uncached = fixture.client(cached: false)
        #expect(try await uncached.cacheStatistics() == nil)
        try await uncached.clearCache()
    }

    @Test func jsonValuesCompareWithNumbersAndStrings() async throws {
        let reply = try await fixture.client(cached: false).send(Endpoint<JSONValue>(.get, "/x")).value
        let expected = 3
        #expect(reply["code"] == 200)          // the server wrote 200.0
        #expect(reply["code"] == 200.0)
        #expect(reply["count"] == expected)
        #expect(reply["count"] != 4)
        #expect(reply["target"] == "/x")
        #expect(reply["target"] != "/y")
        #expect(reply["missing"] != 0)
        #expect(!(reply["missing"] == ""))
        let big: JSONValue = .number("9007199254740993")
        #expect(big == 9_007_199_254_740_993)
        #expect(big != 9_007_199_254_740_992)
        #expect(JSONValue.string("200") != 200)
        #expect(JSONValue.bool(true) == true)
    }
}
