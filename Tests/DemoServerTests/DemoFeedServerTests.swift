import Foundation
import RiffleTestSupport
import Testing
@testable import DemoServer

@Suite("DemoFeedServer", .offThePool)
struct DemoFeedServerTests {
    private func page(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func servesPagesWithCachingHeaders() throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let url = try #require(URL(string: demo.template.replacingOccurrences(of: "{page}", with: "2")))

        let response = try TestHTTP.get(url)
        let data = response.body
        let document = try page(data)

        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "max-age=60")
        #expect(response.headers["etag"] == ETag.of(data))
        #expect(document["page"] as? Int == 2)
        #expect(document["per_page"] as? Int == 30)
        #expect(document["total_pages"] as? Int == 24)
        #expect((document["items"] as? [Any])?.count == 30)
        #expect(demo.requestCount(page: 2) == 1)
        #expect(demo.requestCount == 1)
    }

    @Test func pagesAreFreshForTheMaxAgeTheServerWasGiven() throws {
        let demo = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        defer { demo.stop() }
        let response = try TestHTTP.get(demo.url(page: 1))
        #expect(response.headers["cache-control"] == "max-age=3600")
        let again = try TestHTTP.get(demo.url(page: 1), headers: ["If-None-Match": try #require(response.headers["etag"])])
        #expect(again.status == 304 && again.headers["cache-control"] == "max-age=3600")
    }

    @Test func ifNoneMatchGets304WithoutBody() throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let first = try TestHTTP.get(demo.url(page: 1))
        let etag = try #require(first.headers["etag"])

        let second = try TestHTTP.get(demo.url(page: 1), headers: ["If-None-Match": etag])
        let data = second.body

        #expect(second.status == 304)
        #expect(data.isEmpty)
        #expect(second.headers["etag"] == etag)
        #expect(demo.requestCount(page: 1) == 2)
        #expect(demo.server.requests.last?.header("if-none-match") == etag)
    }

    @Test func pageBeyondTheEndHasNoItems() throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }

        let response = try TestHTTP.get(demo.url(page: 25))
        let data = response.body
        let document = try page(data)

        #expect(response.status == 200)
        #expect(document["page"] as? Int == 25)
        #expect((document["items"] as? [Any])?.isEmpty == true)
    }

    @Test func failPageAnswers500AndCanBeSetAfterSuccess() throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let before = try TestHTTP.get(demo.url(page: 3))

        demo.failPage = 3
        let failed = try TestHTTP.get(demo.url(page: 3))
        let body = failed.body
        let other = try TestHTTP.get(demo.url(page: 4))

        #expect(before.status == 200)
        #expect(failed.status == 500)
        #expect(failed.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(!body.isEmpty && body.count < 200)
        #expect(other.status == 200)
        #expect(demo.requestCount(page: 3) == 2)
        #expect(demo.requestCount(page: 4) == 1)
        #expect(demo.requestCount == 3)
    }

    @Test func failPageFromInit() throws {
        let demo = try DemoFeedServer(latency: .zero, failPage: 1)
        defer { demo.stop() }

        let response = try TestHTTP.get(demo.url(page: 1))

        #expect(response.status == 500)
    }

    @Test func brokenPagesMisbehaveAsConfigured() throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let good = try TestHTTP.get(demo.url(page: 5))
        let etag = try #require(good.headers["etag"])

        demo.brokenPages = [5: .invalidJSON, 6: .noItems, 7: .status(503)]
        let invalidResponse = try TestHTTP.get(demo.url(page: 5), headers: ["If-None-Match": etag])
        let invalid = invalidResponse.body
        let empty = try TestHTTP.get(demo.url(page: 6)).body
        let unavailable = try TestHTTP.get(demo.url(page: 7))

        #expect(invalidResponse.status == 200)
        #expect(invalidResponse.headers["etag"] != etag)
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: invalid) }
        #expect((try page(empty)["items"] as? [Any])?.isEmpty == true)
        #expect(unavailable.status == 503)
    }

    @Test func latencyDelaysEveryAnswer() throws {
        let demo = try DemoFeedServer(latency: .milliseconds(150))
        defer { demo.stop() }

        let started = ContinuousClock.now
        _ = try TestHTTP.get(demo.url(page: 1))

        #expect(ContinuousClock.now - started >= .milliseconds(150))
    }

    @Test func badPageNumbersAre400() throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }

        let zero = try TestHTTP.get(demo.server.url("/api/items?page=0"))
        let word = try TestHTTP.get(demo.server.url("/api/items?page=two"))
        let missing = try TestHTTP.get(demo.server.url("/nope"))

        #expect(zero.status == 400)
        #expect(word.status == 400)
        #expect(missing.status == 404)
    }

    @Test func datesAreMovedToLookRecentUnlessStored() throws {
        let stored = try DemoFeed.load()
        let live = try DemoFeedServer(latency: .zero)
        let exact = try DemoFeedServer(latency: .zero, timeline: .stored)
        defer { live.stop(); exact.stop() }

        let newest = try #require(live.feed.items.first?.createdAt)

        #expect(abs(newest.timeIntervalSinceNow) < 3_600)
        #expect(exact.feed.items == stored.items)
        #expect(live.feed.items.map(\.id) == stored.items.map(\.id))
    }
}
