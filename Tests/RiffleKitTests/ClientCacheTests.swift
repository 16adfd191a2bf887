import DemoServer
import Foundation
import Synchronization
import Testing
@testable import RiffleKit

/// A dictionary cache for testing the client's side of `ResponseCaching` (the real one is in Cache/).
final class InMemoryResponseCache: ResponseCaching {
    private let stored = Mutex([URL: HTTPResponse]())
    var count: Int { stored.withLock { $0.count } }

    func response(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                  validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                  fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse {
        let url = request.url
        if policy != .reloadIgnoringCache, let hit = stored.withLock({ $0[url] }) {
            return CachedResponse(response: hit, source: .cache)
        }
        if policy == .returnCacheDontLoad { throw .notCached }
        let response = try await fetch(request)
        try validate(response)
        stored.withLock { $0[url] = response }
        return CachedResponse(response: response, source: .network)
    }

    func responses(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                   validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                   fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        -> AsyncThrowingStream<CachedResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do throws(RiffleError) {
                    continuation.yield(try await self.response(for: request, policy: policy, lifetime: lifetime,
                                                               validate: validate, fetch: fetch))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func statistics() -> CacheStatistics {
        let size = stored.withLock { $0.values.reduce(0) { $0 + $1.body.count } }
        return CacheStatistics(totalSize: size, entryCount: count, sizeLimit: .max)
    }

    func removeAll() { stored.withLock { $0.removeAll() } }
}

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
