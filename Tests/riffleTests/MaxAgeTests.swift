import Foundation
import RiffleKit
import RiffleTestSupport
import Testing
@testable import riffle

@Suite("--max-age, the user's limit on a stored page's age")
struct MaxAgeTests {
    @Test func olderPagesExceedItOthersDoNot() async throws {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetched = Date(timeIntervalSince1970: 1_000_000)
        let feed = try Feed(template: "http://127.0.0.1/{page}")
        let loader = PageLoader(feed: feed, cache: ResponseCache(directory: folder, clock: { fetched }),
                                client: Client(Client.Configuration(baseURL: feed.url(forPage: 1)), transport: CannedTransport(Data("[{\"id\":1,\"title\":\"a\"}]".utf8))))
        _ = try await loader.load(1)
        let later = fetched.addingTimeInterval(120)

        #expect(MaxAge.isExceeded(for: 1, maxAge: 60, loader: loader, now: later))
        #expect(!MaxAge.isExceeded(for: 1, maxAge: 600, loader: loader, now: later))
        #expect(!MaxAge.isExceeded(for: 1, maxAge: nil, loader: loader, now: later))
        #expect(!MaxAge.isExceeded(for: 2, maxAge: 60, loader: loader, now: later), "a page not on disk is the cache's to find")
    }

    /// The offline fallback stays: a page older than --max-age is asked for again, and when the
    /// server is gone the stored page is printed, marked stale, rather than lost.
    @Test func aPageOverItsAgeIsStillTheAnswerWhenTheServerIsDown() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let online = try await fixture.dump(["--pages", "1-2"])
        #expect(online.status == 0)
        fixture.server.stop()

        let offline = try await fixture.dump(["--pages", "1-2", "--max-age", "0", "--timings"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == online.stdout)
        let lines = try DumpFixture.objects(offline.stderr)
        #expect(lines.prefix(2).map { $0["source"] as? String } == ["stale", "stale"], "\(offline.stderr)")
    }

    @Test func aPageOverItsAgeIsRevalidatedWhenTheServerIsUp() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump([])
        let again = try await fixture.dump(["--max-age", "0", "--timings"])
        #expect(fixture.server.requestCount(page: 1) == 2)
        #expect(try DumpFixture.objects(again.stderr).first?["source"] as? String == "revalidated")
        #expect(fixture.server.server.requests.last?.header("if-none-match") != nil)
    }
}
