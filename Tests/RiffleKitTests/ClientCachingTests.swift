import DemoServer
import Foundation
import Synchronization
import Testing
@testable import RiffleKit

/// The caching a user of the seeds counted on, through a `Client` with a real `ResponseCache` and a
/// server on 127.0.0.1 that counts what reaches it.
@Suite("Client caching: default freshness, the app's cache time, POST answers, cache-only")
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
}
