import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache

@Suite("Cache de-duplication and cancellation")
struct CacheCoalescingTests {
    @Test func hundredConcurrentIdenticalRequestsMakeOneTransfer() async throws {
        let fixture = try CacheFixture()
        // The answer waits until all 100 callers are waiting on the transfer: no guessed delay.
        let gate = DispatchSemaphore(value: 0)
        fixture.route.withLock { $0.gate = gate }
        let tasks = await waiting(100, on: fixture)
        gate.signal()
        var bodies: [Data] = []
        for task in tasks { bodies.append(try await task.value.response.body) }
        #expect(bodies.count == 100)
        #expect(Set(bodies).count == 1)
        #expect(fixture.server.requestCount == 1)
    }

    /// Starts `count` callers and returns once all of them wait on the one transfer.
    func waiting(_ count: Int, on fixture: CacheFixture) async -> [Task<CachedResponse, any Error>] {
        let request = fixture.request()
        let tasks = (0..<count).map { _ in Task { try await fixture.get(request, .reloadIgnoringCache) } }
        #expect(await eventually { await fixture.cache.waiterCount(for: request) >= count })
        return tasks
    }

    @Test func cancellingOneCallerLeavesTheOthersTheirResult() async throws {
        let fixture = try CacheFixture()
        let gate = DispatchSemaphore(value: 0)
        fixture.route.withLock { $0.gate = gate }
        let tasks = await waiting(3, on: fixture)

        // The server answers only once the cache has let the cancelled caller go.
        tasks[0].cancel()
        #expect(await eventually { await fixture.cache.waiterCount(for: fixture.request()) <= 2 })
        gate.signal()

        await #expect(throws: RiffleError.cancelled) { try await tasks[0].value }
        #expect(try await tasks[1].value.source == .network)
        #expect(try await tasks[2].value.source == .network)
        #expect(fixture.server.requestCount == 1)
    }

    @Test func theLastCancelCancelsTheTransfer() async throws {
        let fixture = try CacheFixture()
        // The answer waits until the test has seen the transfer cancelled: both callers leave first,
        // however slowly a loaded machine runs the test.
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        fixture.route.withLock { $0.gate = gate }
        let outcome = CacheShared<RiffleError?>(nil)
        let transport = fixture.transport
        let request = fixture.request()
        let fetch: @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse = { request throws(RiffleError) in
            do throws(RiffleError) { return try await transport.send(request) } catch {
                outcome.withLock { $0 = error }
                throw error
            }
        }
        let tasks = (0..<2).map { _ in
            Task { try await fixture.cache.response(for: request, policy: .reloadIgnoringCache, maxAge: nil, validate: { _ in }, fetch: fetch) }
        }
        #expect(await eventually { await fixture.cache.waiterCount(for: request) >= 2 })

        for task in tasks { task.cancel() }

        for task in tasks { await #expect(throws: RiffleError.cancelled) { try await task.value } }
        #expect(await eventually { outcome.withLock { $0 } != nil })
        #expect(outcome.withLock { $0 } == .cancelled)
        #expect(await fixture.cache.waiterCount(for: request) == 0)
        #expect(try await fixture.cache.statistics().entryCount == 0)
    }

    @Test func aCallerCancelledBeforeJoiningNeverStartsATransfer() async throws {
        let fixture = try CacheFixture()
        let request = fixture.request()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fixture.get(request, .reloadIgnoringCache)
        }
        await #expect(throws: RiffleError.cancelled) { try await task.value }
        #expect(fixture.server.requestCount == 0)
    }

    @Test func aCallerArrivingAsTheTransferFinishesGetsItsResult() async throws {
        let fixture = try CacheFixture()
        let request = fixture.request()
        let transport = fixture.transport
        let late = CacheShared<Task<CachedResponse, any Error>?>(nil)
        let cache = fixture.cache
        // The transfer's last step, after the server answered: another caller arrives and joins.
        let fetch: @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse = { sent throws(RiffleError) in
            let response = try await transport.send(sent)
            late.withLock { $0 = Task { try await fixture.get(request, .reloadIgnoringCache) } }
            _ = await eventually { await cache.waiterCount(for: request) >= 2 }
            return response
        }

        let first = try await cache.response(for: request, policy: .reloadIgnoringCache, maxAge: nil, validate: { _ in }, fetch: fetch)
        let second = try await #require(late.withLock { $0 }).value

        #expect(first == second)
        #expect(fixture.server.requestCount == 1)
    }

    @Test func requestsWithOtherHeadersDoNotShareATransfer() async throws {
        let fixture = try CacheFixture()
        fixture.route.withLock { $0.delay = .milliseconds(100); $0.headers.append(("Vary", "Accept-Language")) }
        async let english = fixture.get(fixture.request(headers: ["Accept-Language": "en"]), .reloadIgnoringCache)
        async let french = fixture.get(fixture.request(headers: ["Accept-Language": "fr"]), .reloadIgnoringCache)
        _ = try await (english, french)
        #expect(fixture.server.requestCount == 2)
    }
}
