import DemoServer
import Foundation
import Testing
@testable import RiffleKit

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

    @Test func aUsersTokenHeaderIsPartOfTheCacheKey() async throws {
        func client(token: String) -> Client { fixture.client { $0.headers["token"] = token } }
        let alice = try await client(token: "alice-token").send(Endpoint<JSONValue>(.get, "/inbox"))
        let bob = try await client(token: "bob-token").send(Endpoint<JSONValue>(.get, "/inbox"))
        let aliceAgain = try await client(token: "alice-token").send(Endpoint<JSONValue>(.get, "/inbox"))
        #expect(alice.value["user"] == "alice")
        #expect(bob.source == .network)
        #expect(bob.value["user"] == "bob-t")
        #expect(aliceAgain.source == .cache)
        #expect(aliceAgain.value["user"] == "alice")
        #expect(fixture.server.requestCount == 2)
        // Only a digest of it is kept.
        let files = FileManager.default.enumerator(at: fixture.directory, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        #expect(!files.isEmpty)
        for file in files { #expect((FileManager.default.contents(atPath: file.path) ?? Data()).range(of: Data("alice-token".utf8)) == nil) }
    }

    @Test func anyHeaderCanBeDeclaredToIdentifyTheUser() async throws {
        func send(_ user: String, declared: Bool) async throws -> ClientResponse<JSONValue> {
            let client = fixture.client { if declared { $0.credentialHeaders.insert("X-User") } }
            return try await client.send(Endpoint<JSONValue>(.get, declared ? "/declared" : "/undeclared", headers: ["X-User": user]))
        }
        _ = try await send("a", declared: false)
        #expect(try await send("b", declared: false).value["user"] == "a")   // undeclared: one entry for both
        _ = try await send("a", declared: true)
        #expect(try await send("b", declared: true).value["user"] == "b")
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
