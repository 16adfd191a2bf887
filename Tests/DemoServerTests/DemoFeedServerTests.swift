import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import DemoServer

@Suite("DemoFeedServer")
struct DemoFeedServerTests {
    private func page(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func servesPagesWithCachingHeaders() async throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let url = try #require(URL(string: demo.template.replacingOccurrences(of: "{page}", with: "2")))

        let (data, response) = try await TestHTTP.get(url)
        let document = try page(data)

        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Cache-Control") == "max-age=60")
        #expect(response.value(forHTTPHeaderField: "ETag") == ETag.of(data))
        #expect(document["page"] as? Int == 2)
        #expect(document["per_page"] as? Int == 30)
        #expect(document["total_pages"] as? Int == 24)
        #expect((document["items"] as? [Any])?.count == 30)
        #expect(demo.requestCount(page: 2) == 1)
        #expect(demo.requestCount == 1)
    }

    @Test func ifNoneMatchGets304WithoutBody() async throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let (_, first) = try await TestHTTP.get(demo.url(page: 1))
        let etag = try #require(first.value(forHTTPHeaderField: "ETag"))

        let (data, second) = try await TestHTTP.get(demo.url(page: 1), headers: ["If-None-Match": etag])

        #expect(second.statusCode == 304)
        #expect(data.isEmpty)
        #expect(second.value(forHTTPHeaderField: "ETag") == etag)
        #expect(demo.requestCount(page: 1) == 2)
        #expect(demo.server.requests.last?.header("if-none-match") == etag)
    }

    @Test func pageBeyondTheEndHasNoItems() async throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }

        let (data, response) = try await TestHTTP.get(demo.url(page: 25))
        let document = try page(data)

        #expect(response.statusCode == 200)
        #expect(document["page"] as? Int == 25)
        #expect((document["items"] as? [Any])?.isEmpty == true)
    }

    @Test func failPageAnswers500AndCanBeSetAfterSuccess() async throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let (_, before) = try await TestHTTP.get(demo.url(page: 3))

        demo.failPage = 3
        let (body, failed) = try await TestHTTP.get(demo.url(page: 3))
        let (_, other) = try await TestHTTP.get(demo.url(page: 4))

        #expect(before.statusCode == 200)
        #expect(failed.statusCode == 500)
        #expect(failed.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain") == true)
        #expect(!body.isEmpty && body.count < 200)
        #expect(other.statusCode == 200)
        #expect(demo.requestCount(page: 3) == 2)
        #expect(demo.requestCount(page: 4) == 1)
        #expect(demo.requestCount == 3)
    }

    @Test func failPageFromInit() async throws {
        let demo = try DemoFeedServer(latency: .zero, failPage: 1)
        defer { demo.stop() }

        let (_, response) = try await TestHTTP.get(demo.url(page: 1))

        #expect(response.statusCode == 500)
    }

    @Test func brokenPagesMisbehaveAsConfigured() async throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }
        let (_, good) = try await TestHTTP.get(demo.url(page: 5))
        let etag = try #require(good.value(forHTTPHeaderField: "ETag"))

        demo.brokenPages = [5: .invalidJSON, 6: .noItems, 7: .status(503)]
        let (invalid, invalidResponse) = try await TestHTTP.get(demo.url(page: 5), headers: ["If-None-Match": etag])
        let (empty, _) = try await TestHTTP.get(demo.url(page: 6))
        let (_, unavailable) = try await TestHTTP.get(demo.url(page: 7))

        #expect(invalidResponse.statusCode == 200)
        #expect(invalidResponse.value(forHTTPHeaderField: "ETag") != etag)
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: invalid) }
        #expect((try page(empty)["items"] as? [Any])?.isEmpty == true)
        #expect(unavailable.statusCode == 503)
    }

    @Test func latencyDelaysEveryAnswer() async throws {
        let demo = try DemoFeedServer(latency: .milliseconds(150))
        defer { demo.stop() }

        let started = ContinuousClock.now
        _ = try await TestHTTP.get(demo.url(page: 1))

        #expect(ContinuousClock.now - started >= .milliseconds(150))
    }

    @Test func badPageNumbersAre400() async throws {
        let demo = try DemoFeedServer(latency: .zero)
        defer { demo.stop() }

        let (_, zero) = try await TestHTTP.get(demo.server.url("/api/items?page=0"))
        let (_, word) = try await TestHTTP.get(demo.server.url("/api/items?page=two"))
        let (_, missing) = try await TestHTTP.get(demo.server.url("/nope"))

        #expect(zero.statusCode == 400)
        #expect(word.statusCode == 400)
        #expect(missing.statusCode == 404)
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
