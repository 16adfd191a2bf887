import Foundation
import RiffleHTTP
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleCache

@Suite("Cache: a response being stored holds up no other request")
struct CacheStoreOffActorTests {
    /// A dump asks for page N+1 as soon as page N says more follow, while page N is still being
    /// written to disk. Page 1's store here cannot finish (its note waits) until page 2 has been
    /// answered through the same cache: with the store's disk work on the cache's actor, page 2's
    /// lookup would wait behind it and neither would finish before the note gives up. Page 1 runs on a
    /// thread of its own (a task executor), so the store's nonisolated step and the note that blocks it
    /// hold no thread of the concurrency pool, which every other test of the suite shares (two threads
    /// on a 2-core machine); the test waits for the store to begin by polling.
    @Test func anotherRequestIsAnsweredWhileAPageIsBeingStored() async throws {
        let fixture = try CacheFixture()
        let storing = Mutex(false)
        let secondAnswered = DispatchSemaphore(value: 0)
        let noteSaw = Mutex<Bool?>(nil)
        let location = BodyLocation.named(path: "feeds/test/feed_1.json", owner: "test", note: { _ in
            storing.withLock { $0 = true }
            let answered = secondAnswered.wait(timeout: .now() + .seconds(Int(patience.components.seconds))) == .success
            noteSaw.withLock { $0 = answered }
            return nil
        })
        let cache = fixture.cache
        let fetch = fixture.fetch
        let first = Task(executorPreference: ThreadExecutor(label: "riffle-test page 1")) {
            try await cache.response(for: fixture.request("/feed?page=1"), policy: .returnCacheElseLoad, lifetime: .server(fallback: nil),
                                     location: location, validate: { _ in }, fetch: fetch)
        }
        // Page 2 only once page 1 is inside its store.
        #expect(await eventually { storing.withLock { $0 } })
        let second = try await fixture.get(fixture.request("/feed?page=2"))
        secondAnswered.signal()
        #expect(second.source == .network)
        #expect(try await first.value.source == .network)
        #expect(noteSaw.withLock { $0 } == true)
    }
}
