import DemoServer
import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache

/// Seed 001's cache-then-network: the cached answer at once, then the network's, which says whether
/// it changed; a variant skips an unchanged second answer as the seed's callback did.
@Suite("Client.updates: unchanged is told, against 127.0.0.1")
struct ClientUpdatesSeedTests {
    /// The body the server sends, changeable; `etag` makes it answer 304 to a matching `If-None-Match`.
    let body = CacheShared(#"{"n": 1}"#)
    let etag = CacheShared<String?>(nil)
    let fixture: SeedFixture

    init() throws {
        let body = body, etag = etag
        fixture = try SeedFixture { request in
            let tag = etag.withLock { $0 }
            if let tag, request.header("If-None-Match") == tag { return HTTPServer.Response(status: 304, headers: [("ETag", tag)]) }
            return .json(body.withLock { $0 }, headers: tag.map { [("ETag", $0)] } ?? [])
        }
    }

    var endpoint: Endpoint<JSONValue> { Endpoint(.get, "/feed", cachePolicy: .returnCacheThenLoad) }

    func collect(_ unchanged: UnchangedAnswers = .deliver) async throws(RiffleError) -> [ClientResponse<JSONValue>] {
        var replies: [ClientResponse<JSONValue>] = []
        // Typed all the way: the loop throws RiffleError, no cast.
        for try await reply in fixture.client().updates(endpoint, unchanged: unchanged) { replies.append(reply) }
        return replies
    }

    @Test func withNothingCachedTheOneAnswerIsNew() async throws {
        let replies = try await collect()
        #expect(replies.map(\.source) == [.network])
        #expect(replies.map(\.isUnchanged) == [false])
    }

    @Test func anEqualBodyIsToldUnchanged() async throws {
        _ = try await collect()
        let replies = try await collect()
        #expect(replies.map(\.source) == [.cache, .network])
        #expect(replies.map(\.isUnchanged) == [false, true])
        #expect(fixture.server.requestCount == 2)
    }

    @Test func aNotModifiedIsToldUnchanged() async throws {
        etag.withLock { $0 = "\"v1\"" }
        _ = try await collect()
        let replies = try await collect()
        #expect(replies.map(\.source) == [.cache, .revalidated])
        #expect(replies.map(\.isUnchanged) == [false, true])
    }

    @Test func aNewBodyIsToldChanged() async throws {
        _ = try await collect()
        body.withLock { $0 = #"{"n": 2}"# }
        let replies = try await collect()
        #expect(replies.map(\.value) == [["n": 1], ["n": 2]])
        #expect(replies.map(\.isUnchanged) == [false, false])
    }

    @Test func skippingLeavesOutOnlyAnUnchangedAnswer() async throws {
        _ = try await collect()
        let same = try await collect(.skip)
        #expect(same.map(\.source) == [.cache])
        body.withLock { $0 = #"{"n": 3}"# }
        let changed = try await collect(.skip)
        #expect(changed.map(\.value) == [["n": 1], ["n": 3]])
        #expect(fixture.server.requestCount == 3)
    }
}
