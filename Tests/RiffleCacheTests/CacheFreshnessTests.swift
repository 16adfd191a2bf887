import Foundation
import RiffleHTTP
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache

@Suite("Cache freshness: Cache-Control, Expires, request max age")
struct CacheFreshnessTests {
    /// Loads twice with `maxAge`, `advance` seconds apart, and reports the second value's source.
    func secondSource(headers: [(name: String, value: String)], maxAge: TimeInterval?, advance: TimeInterval) async throws -> (CachedResponse.Source, Int) {
        let fixture = try CacheFixture()
        fixture.route.withLock { $0.headers = headers }
        _ = try await fixture.get(fixture.request(), maxAge: maxAge)
        fixture.clock.advance(advance)
        let second = try await fixture.get(fixture.request(), maxAge: maxAge)
        return (second.source, fixture.server.requestCount)
    }

    @Test func requestMaxAgeDecidesWhenTheServerIsSilent() async throws {
        #expect(try await secondSource(headers: [], maxAge: 300, advance: 299) == (.cache, 1))
        #expect(try await secondSource(headers: [], maxAge: 300, advance: 301) == (.network, 2))
        #expect(try await secondSource(headers: [], maxAge: nil, advance: 0) == (.network, 2))
    }

    @Test func serverMaxAgeOverridesTheRequest() async throws {
        #expect(try await secondSource(headers: [("Cache-Control", "max-age=10")], maxAge: 300, advance: 11) == (.network, 2))
        #expect(try await secondSource(headers: [("Cache-Control", "private, max-age=600")], maxAge: 5, advance: 100) == (.cache, 1))
    }

    @Test func noStoreIsNeverKeptAndNoCacheAlwaysRevalidates() async throws {
        #expect(try await secondSource(headers: [("Cache-Control", "no-store")], maxAge: 300, advance: 0) == (.network, 2))
        let revalidated = try await secondSource(headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")], maxAge: 300, advance: 0)
        #expect(revalidated == (.revalidated, 2))
    }

    /// An answer that waited in a shared cache on the way (a CDN's `Age`) has spent that much of
    /// its lifetime already (RFC 9111 §4.2.3).
    @Test func theAgeAnAnswerArrivesWithCountsAgainstItsLifetime() async throws {
        #expect(try await secondSource(headers: [("Cache-Control", "max-age=60"), ("Age", "50")], maxAge: 300, advance: 5) == (.cache, 1))
        #expect(try await secondSource(headers: [("Cache-Control", "max-age=60"), ("Age", "50")], maxAge: 300, advance: 11) == (.network, 2))
        #expect(try await secondSource(headers: [("Cache-Control", "max-age=60"), ("Age", "3600")], maxAge: 300, advance: 0) == (.network, 2))
        let date = ["date": "Sun, 06 Nov 1994 08:49:37 GMT", "expires": "Sun, 06 Nov 1994 08:51:37 GMT"]
        #expect(Freshness(headers: date.merging(["age": "100"]) { $1 }, now: Date()).serverMaxAge == 20)
        // An `Age` that is not a count of seconds says nothing.
        #expect(Freshness(headers: ["cache-control": "max-age=60", "age": "soon"], now: Date()).serverMaxAge == 60)
        #expect(Freshness(headers: ["cache-control": "max-age=60", "age": "-30"], now: Date()).serverMaxAge == 60)
        #expect(Freshness(headers: ["cache-control": "max-age=60", "age": "99999999999999999999"], now: Date()).serverMaxAge == 0)
        // Without the server's own lifetime, the app's maxAge is no lifetime the server counted from.
        #expect(Freshness(headers: ["age": "100"], now: Date()).serverMaxAge == nil)
    }

    @Test func expiresCountsFromTheServersDate() {
        let headers = ["date": "Sun, 06 Nov 1994 08:49:37 GMT", "expires": "Sun, 06 Nov 1994 08:51:37 GMT"]
        #expect(Freshness(headers: headers, now: Date()).serverMaxAge == 120)
        #expect(Freshness(headers: ["expires": "0"], now: Date()).serverMaxAge == 0)
        #expect(Freshness(headers: ["cache-control": "max-age=5", "expires": "0"], now: Date()).serverMaxAge == 5)
        #expect(Freshness(headers: ["vary": "*"], now: Date()).storable == false)
    }

    @Test func a304RenewsTheAgeWithoutRewritingTheBody() async throws {
        let fixture = try CacheFixture { $0.inlineLimit = 0 }
        fixture.route.withLock { $0.body = #"{"items": [], "pad": "\#(String(repeating: "x", count: 4000))"}"# }
        _ = try await fixture.get(fixture.request())
        let bodyFile = try #require(fixture.allFiles().first { $0.path.hasSuffix(".body") })
        let before = try FileManager.default.attributesOfItem(atPath: bodyFile.path)
        fixture.clock.advance(100)
        fixture.server.resetLog()

        let renewed = try await fixture.get(fixture.request())

        #expect(renewed.source == .revalidated)
        #expect(fixture.server.requests.map { $0.header("If-None-Match") } == ["\"v1\""])
        let after = try FileManager.default.attributesOfItem(atPath: bodyFile.path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(try Data(contentsOf: URL(fileURLWithPath: bodyFile.path)) == bodyFile.data)
        // The renewed entry is fresh again for its whole max age, and so is a new cache on the same folder.
        fixture.clock.advance(59)
        #expect(try await fixture.get(fixture.request()).source == .cache)
        let reopened = ResponseCache(directory: fixture.directory, clock: fixture.clock.closure)
        let value = try #require(await reopened.cachedValue(for: fixture.request(), maxAge: nil))
        #expect(value.source == .cache)
        #expect(value.age == 59)
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSince() async throws {
        let fixture = try CacheFixture()
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        fixture.route.withLock { $0.headers = [("Last-Modified", date), ("Cache-Control", "max-age=60")] }
        _ = try await fixture.get(fixture.request())
        fixture.clock.advance(61)
        _ = try await fixture.get(fixture.request())
        #expect(fixture.server.requests.map { $0.header("If-Modified-Since") } == [nil, date])
        #expect(fixture.server.requests.last?.header("If-None-Match") == nil)
    }
}
