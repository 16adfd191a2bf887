import DemoServer
import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleCache

/// The caching a user of the seeds counted on, through a `Client` with a real `ResponseCache` and a
/// server on 127.0.0.1 that counts what reaches it.
@Suite("Client caching: default freshness, the app's cache time, POST answers, cache-only, whose entry, stale answers")
struct ClientCachingTests {
    /// What the server sends with every answer; the body names the request so answers can be told apart.
    let headers = CacheShared<[(name: String, value: String)]>([])
    let fixture: SeedFixture

    init() throws {
        let headers = headers
        fixture = try SeedFixture { request in
            let body = String(decoding: request.body, as: UTF8.self)
            return .json(#"{"method": "\#(request.method)", "path": "\#(request.path)", "body": \#(body.isEmpty ? "null" : body)}"#,
                         headers: headers.withLock { $0 })
        }
    }

    var requests: Int { fixture.server.requestCount }

    @Test func aSilentServersAnswerIsFreshForTheDefaultThreeMinutes() async throws {
        let client = fixture.client()
        #expect(client.configuration.defaultMaxAge == 180)
        let first = try await client.send(Endpoint<JSONValue>(.get, "/news"))
        fixture.clock.advance(179)
        let second = try await client.send(Endpoint<JSONValue>(.get, "/news"))
        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(requests == 1)
        fixture.clock.advance(2)
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/news")).source == .network)
        #expect(requests == 2)
    }

    @Test func theDefaultIsConfigurableAndAnEndpointsMaxAgeWinsOverIt() async throws {
        let client = fixture.client { $0.defaultMaxAge = 0 }
        _ = try await client.send(Endpoint<JSONValue>(.get, "/a"))
        _ = try await client.send(Endpoint<JSONValue>(.get, "/a"))
        #expect(requests == 2)
        _ = try await client.send(Endpoint<JSONValue>(.get, "/b", maxAge: 300))
        fixture.clock.advance(299)
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/b", maxAge: 300)).source == .cache)
        #expect(requests == 3)
    }

    @Test(arguments: ["no-cache, no-store, max-age=0", "max-age=0"])
    func byDefaultTheServersNoStoreOrZeroMaxAgeWins(cacheControl: String) async throws {
        headers.withLock { $0 = [("Cache-Control", cacheControl)] }
        let client = fixture.client()
        _ = try await client.send(Endpoint<JSONValue>(.get, "/spring", maxAge: 300))
        _ = try await client.send(Endpoint<JSONValue>(.get, "/spring", maxAge: 300))
        #expect(requests == 2)
        if cacheControl.contains("no-store") {
            let offline = Endpoint<JSONValue>(.get, "/spring", cachePolicy: .returnCacheDontLoad, maxAge: 300)
            #expect(await riffleError { () async throws(RiffleError) in try await client.send(offline) } == .notCached)
        }
    }

    @Test(arguments: ["no-cache, no-store, max-age=0", "max-age=0"])
    func underAppPrecedenceTheEndpointsCacheTimeWinsOverTheServer(cacheControl: String) async throws {
        headers.withLock { $0 = [("Cache-Control", cacheControl)] }
        let client = fixture.client()
        var endpoint = Endpoint<JSONValue>(.get, "/spring", maxAge: 300)
        endpoint.maxAgePrecedence = .app
        _ = try await client.send(endpoint)
        fixture.clock.advance(299)
        #expect(try await client.send(endpoint).source == .cache)
        #expect(requests == 1)
        // Offline, cache-only finds it too.
        fixture.server.stop()
        endpoint.cachePolicy = .returnCacheDontLoad
        fixture.clock.advance(2)
        let offline = try await client.send(endpoint)
        #expect(offline.source == .stale)
        #expect(offline.value["path"] == "/spring")
    }

    @Test func appPrecedenceCanBeTheClientsForEveryEndpoint() async throws {
        headers.withLock { $0 = [("Cache-Control", "no-store")] }
        let client = fixture.client { $0.maxAgePrecedence = .app; $0.defaultMaxAge = 60 }
        _ = try await client.send(Endpoint<JSONValue>(.get, "/x"))
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/x")).source == .cache)
        #expect(requests == 1)
        // An endpoint can still defer to the server.
        var strict = Endpoint<JSONValue>(.get, "/y")
        strict.maxAgePrecedence = .server
        _ = try await client.send(strict)
        _ = try await client.send(strict)
        #expect(requests == 3)
    }

    @Test func postAnswersAreCachedKeyedByBodyOnlyWhenAsked() async throws {
        let client = fixture.client()
        func page(_ n: Int, cached: Bool) -> Endpoint<JSONValue> {
            var endpoint = Endpoint<JSONValue>(.post, "/waybills", body: .json(["page": .number(String(n)), "rows": 5]))
            if cached { endpoint.cacheEligibility = .anyMethod }
            return endpoint
        }
        _ = try await client.send(page(1, cached: false))
        _ = try await client.send(page(1, cached: false))
        #expect(requests == 2)
        let first = try await client.send(page(1, cached: true))
        let again = try await client.send(page(1, cached: true))
        let second = try await client.send(page(2, cached: true))
        #expect(first.source == .network)
        #expect(again.source == .cache)
        #expect(again.value["body"]?["page"] == 1)
        #expect(second.source == .network)
        #expect(second.value["body"]?["page"] == 2)
        #expect(requests == 4)
        var offline = page(2, cached: true)
        offline.cachePolicy = .returnCacheDontLoad
        #expect(try await client.send(offline).value["body"]?["page"] == 2)
        #expect(requests == 4)
    }

    @Test(arguments: HTTPMethod.allCases)
    func cacheOnlyNeverTouchesTheNetwork(method: HTTPMethod) async throws {
        for client in [fixture.client(), fixture.client(cached: false)] {
            for eligibility in [Endpoint<JSONValue>.CacheEligibility.getOnly, .anyMethod] {
                var endpoint = Endpoint<JSONValue>(method, "/never", body: method == .get || method == .head ? nil : .json(["a": 1]),
                                                   cachePolicy: .returnCacheDontLoad)
                endpoint.cacheEligibility = eligibility
                #expect(await riffleError { () async throws(RiffleError) in try await client.send(endpoint) } == .notCached)
                var updates: [CachedResponse.Source] = []
                let error = await riffleError { () async throws(RiffleError) in
                    for try await reply in client.updates(endpoint) { updates.append(reply.source) }
                }
                #expect(error == .notCached)
                #expect(updates.isEmpty)
            }
        }
        #expect(requests == 0)
    }

    @Test func aUsersTokenHeaderIsPartOfTheCacheKey() async throws {
        let fixture = try SeedFixture { request in
            // Echoes who asked (a token's first five letters only), so a test can tell whose answer it got.
            .json(#"{"user": "\#(request.header("token").map { String($0.prefix(5)) } ?? request.header("x-user") ?? "-")"}"#)
        }
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
        let fixture = try SeedFixture { request in
            // Echoes who asked (a token's first five letters only), so a test can tell whose answer it got.
            .json(#"{"user": "\#(request.header("token").map { String($0.prefix(5)) } ?? request.header("x-user") ?? "-")"}"#)
        }
        func send(_ user: String, declared: Bool) async throws -> ClientResponse<JSONValue> {
            let client = fixture.client { if declared { $0.credentialHeaders.insert("X-User") } }
            return try await client.send(Endpoint<JSONValue>(.get, declared ? "/declared" : "/undeclared", headers: ["X-User": user]))
        }
        _ = try await send("a", declared: false)
        #expect(try await send("b", declared: false).value["user"] == "a")   // undeclared: one entry for both
        _ = try await send("a", declared: true)
        #expect(try await send("b", declared: true).value["user"] == "b")
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

    @Test func offlineTheCallerChoosesCacheOnlyAndTheServerSeesNothing() async throws {
        // Seed 001: check the network first; offline, answer from the cache without trying.
        let fixture = try SeedFixture { _ in .json(#"{"news": ["a"]}"#) }
        let client = fixture.client()
        _ = try await client.send(Endpoint<JSONValue>(.get, "/news"))
        fixture.clock.advance(3600)
        let status = Mutex(Reachability.Status.offline)
        var monitor = Reachability(interval: .milliseconds(1)) { status.withLock { $0 } }.makeAsyncIterator()
        let now = await monitor.next()
        let policy: CachePolicy = now == .online ? .returnCacheElseLoad : .returnCacheDontLoad
        let reply = try await client.send(Endpoint<JSONValue>(.get, "/news", cachePolicy: policy))
        #expect(reply.source == .stale)
        #expect(reply.value["news"] == ["a"])
        #expect(fixture.server.requestCount == 1)
        // Back online: the next status is told, and the request goes out.
        status.withLock { $0 = .online }
        #expect(await monitor.next() == .online)
        #expect(try await client.send(Endpoint<JSONValue>(.get, "/news")).source == .network)
    }
}
