import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache

/// Every policy against every state of the cache, on a real 127.0.0.1 server.
@Suite("Cache policies × cache states")
struct CachePolicyTests {
    enum State: String, CaseIterable, Sendable { case noEntry, fresh, stale, networkFailure }

    /// What a policy delivers: the sources in order, or the error, and how many requests reached the server.
    struct Outcome: Equatable, CustomStringConvertible {
        var sources: [CachedResponse.Source]
        var error: RiffleError?
        var requests: Int
        var description: String { "\(sources) \(error.map { "\($0)" } ?? "") requests=\(requests)" }
    }

    static let expected: [CachePolicy: [State: Outcome]] = [
        .reloadIgnoringCache: [
            .noEntry: Outcome(sources: [.network], requests: 1),
            .fresh: Outcome(sources: [.network], requests: 1),
            .stale: Outcome(sources: [.network], requests: 1),
            .networkFailure: Outcome(sources: [], error: .cannotConnect(host: "", reason: ""), requests: 0),
        ],
        .returnCacheThenLoad: [
            .noEntry: Outcome(sources: [.network], requests: 1),
            .fresh: Outcome(sources: [.cache, .revalidated], requests: 1),
            .stale: Outcome(sources: [.stale, .revalidated], requests: 1),
            .networkFailure: Outcome(sources: [.stale], error: .cannotConnect(host: "", reason: ""), requests: 0),
        ],
        .returnCacheElseLoad: [
            .noEntry: Outcome(sources: [.network], requests: 1),
            .fresh: Outcome(sources: [.cache], requests: 0),
            .stale: Outcome(sources: [.revalidated], requests: 1),
            .networkFailure: Outcome(sources: [.stale], requests: 0),
        ],
        .returnCacheDontLoad: [
            .noEntry: Outcome(sources: [], error: .notCached, requests: 0),
            .fresh: Outcome(sources: [.cache], requests: 0),
            .stale: Outcome(sources: [.stale], requests: 0),
            .networkFailure: Outcome(sources: [.stale], requests: 0),
        ],
    ]

    @Test(arguments: [CachePolicy.reloadIgnoringCache, .returnCacheThenLoad, .returnCacheElseLoad, .returnCacheDontLoad], State.allCases)
    func policyInState(policy: CachePolicy, state: State) async throws {
        let fixture = try CacheFixture()
        let request = fixture.request()
        if state != .noEntry { _ = try await fixture.get(request) }
        if state == .stale || state == .networkFailure { fixture.clock.advance(120) }
        if state == .networkFailure { fixture.server.stop() }
        fixture.server.resetLog()

        var outcome = Outcome(sources: [], requests: 0)
        do {
            for try await value in fixture.cache.responses(for: request, policy: policy, maxAge: nil, validate: { _ in }, fetch: fixture.fetch) {
                outcome.sources.append(value.source)
                if value.source == .revalidated || value.source == .network {
                    #expect(value.differsFromCache == (policy == .returnCacheThenLoad && state == .noEntry))
                }
            }
        } catch let error as RiffleError {
            // Connection errors name the port, which changes each run: compare the kind only.
            if case .cannotConnect = error { outcome.error = .cannotConnect(host: "", reason: "") } else { outcome.error = error }
        }
        outcome.requests = state == .networkFailure ? 0 : fixture.server.requestCount
        #expect(outcome == Self.expected[policy]?[state], "\(policy) in \(state)")
    }

    @Test func revalidationSendsIfNoneMatchAndTheServerAnswers304() async throws {
        let fixture = try CacheFixture()
        _ = try await fixture.get(fixture.request())
        fixture.clock.advance(61)
        fixture.server.resetLog()
        let value = try await fixture.get(fixture.request())
        #expect(value.source == .revalidated)
        #expect(value.age == 0)
        #expect(fixture.server.requests.first?.header("If-None-Match") == "\"v1\"")
        #expect(String(decoding: value.response.body, as: UTF8.self) == fixture.route.withLock { $0.body })
    }

    @Test func staleValueCarriesItsAge() async throws {
        let fixture = try CacheFixture()
        _ = try await fixture.get(fixture.request())
        fixture.clock.advance(600)
        fixture.server.stop()
        let value = try await fixture.get(fixture.request())
        #expect(value.source == .stale)
        #expect(value.age == 600)
        #expect(fixture.log.contains { $0.contains("stale") })
    }

    @Test func serverErrorWithStaleEntryServesStaleButValidationFailureDoesNot() async throws {
        let fixture = try CacheFixture()
        _ = try await fixture.get(fixture.request())
        fixture.clock.advance(120)
        fixture.route.withLock { $0.status = 503; $0.headers = [] }
        #expect(try await fixture.get(fixture.request()).source == .stale)
        fixture.route.withLock { $0 = CacheRoute(); $0.headers = []; $0.body = "{ not json" }
        await #expect(throws: RiffleError.self) { try await fixture.get(fixture.request()) }
    }

    @Test func cacheThenLoadSaysWhetherTheNetworkValueDiffers() async throws {
        let fixture = try CacheFixture()
        _ = try await fixture.get(fixture.request())
        fixture.route.withLock { $0.body = #"{"items": [{"id": 2}]}"#; $0.headers = [("ETag", "\"v2\"")] }
        var values: [CachedResponse] = []
        for try await value in fixture.cache.responses(for: fixture.request(), policy: .returnCacheThenLoad, maxAge: nil,
                                                       validate: { _ in }, fetch: fixture.fetch) {
            values.append(value)
        }
        #expect(values.map(\.source) == [.cache, .network])
        #expect(values.map(\.differsFromCache) == [false, true])
        #expect(fixture.server.requests.last?.header("If-None-Match") == "\"v1\"")
    }
}
