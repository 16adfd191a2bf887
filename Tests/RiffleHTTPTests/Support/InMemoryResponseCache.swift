import Foundation
import RiffleJSON
import Synchronization
@testable import RiffleHTTP

/// A dictionary cache for testing the client's side of `ResponseCaching` (the real one, `ResponseCache`,
/// is RiffleCache's, and its tests with a client are in RiffleCacheTests). Keyed by URL alone.
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
                    // Cache then network: what is kept at once, then the server's answer (stored when valid).
                    if policy == .returnCacheThenLoad, let hit = self.stored.withLock({ $0[request.url] }) {
                        continuation.yield(CachedResponse(response: hit, source: .cache))
                        let response = try await fetch(request)
                        try validate(response)
                        self.stored.withLock { $0[request.url] = response }
                        continuation.yield(CachedResponse(response: response, source: .network))
                    } else {
                        continuation.yield(try await self.response(for: request, policy: policy, lifetime: lifetime,
                                                                   validate: validate, fetch: fetch))
                    }
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
