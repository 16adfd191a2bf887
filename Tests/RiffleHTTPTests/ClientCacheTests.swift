import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleHTTP

@Suite("Client with a cache: validation before storing, sources, GET only")
struct ClientCacheTests {
    let server: HTTPServer
    let cache = InMemoryResponseCache()
    let client: Client

    init() throws {
        server = try HTTPServer { request in
            request.path == "/bad" ? .json(#"{"items": "nope"}"#) : .json(#"{"items": [1]}"#)
        }
        let cache = self.cache
        client = makeClient(server) { $0.cache = cache }
    }

    @Test func aSecondSendComesFromTheCache() async throws {
        let first = try await client.send(Endpoint<JSONValue>(.get, "/good"))
        let second = try await client.send(Endpoint<JSONValue>(.get, "/good"))
        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(second.value == first.value)
        #expect(server.requestCount == 1)
    }

    @Test func anAnswerThatFailsItsShapeIsNeverCached() async throws {
        let endpoint = Endpoint<JSONValue>(.get, "/bad", shape: .object(["items": .array(.number)]))
        let error = await riffleError { () async throws(RiffleError) in try await client.send(endpoint) }
        #expect(error == .validation(path: "$.items", expected: "array of number", actual: "string"))
        #expect(cache.count == 0)
        let offline = Endpoint<JSONValue>(.get, "/bad", cachePolicy: .returnCacheDontLoad)
        #expect(await riffleError { () async throws(RiffleError) in try await client.send(offline) } == .notCached)
    }

    @Test func postsBypassTheCache() async throws {
        _ = try await client.send(Endpoint<JSONValue>(.post, "/good"))
        _ = try await client.send(Endpoint<JSONValue>(.post, "/good"))
        #expect(server.requestCount == 2)
        #expect(cache.count == 0)
    }
}

@Suite("Client.updates: every answer a cache policy gives")
struct ClientUpdatesTests {
    @Test func updatesYieldTheCachedAnswerThenStop() async throws {
        let server = try HTTPServer { _ in .json(#"{"n": 1}"#) }
        let cache = InMemoryResponseCache()
        let client = makeClient(server) { $0.cache = cache }
        _ = try await client.send(Endpoint<JSONValue>(.get, "/n"))
        var sources: [CachedResponse.Source] = []
        for try await reply in client.updates(Endpoint<JSONValue>(.get, "/n")) {
            #expect(reply.value == ["n": 1])
            sources.append(reply.source)
        }
        #expect(sources == [.cache])
    }

    @Test func withoutACacheUpdatesAreOneNetworkAnswer() async throws {
        let server = try HTTPServer { _ in .json(#"{"n": 1}"#) }
        var sources: [CachedResponse.Source] = []
        for try await reply in makeClient(server).updates(Endpoint<JSONValue>(.get, "/n", cachePolicy: .returnCacheThenLoad)) {
            sources.append(reply.source)
        }
        #expect(sources == [.network])
        #expect(server.requestCount == 1)
    }
}
