import DemoServer
import Foundation
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleKit

/// A feed's own failures (`FeedError`) cross the client's pipeline as `RiffleError.caller` and come back
/// to the loader's caller as they were thrown; the request's failures come back as `.request`.
@Suite("Feed errors: by layer, carried through the client whole")
struct FeedErrorTests {
    /// Every failure the client's plugins were told of.
    final class FailureLog: ClientPlugin {
        let failures = Mutex<[RiffleError]>([])
        func didFail(_ error: RiffleError, for call: ClientCall, duration: Duration) { failures.withLock { $0.append(error) } }
    }

    @Test func aPageWithoutItemsIsTheFeedsErrorForTheCallerAndACallersErrorForThePlugins() async throws {
        let server = try HTTPServer { _ in .json(#"{"error": "rate limited", "retry": 60}"#) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-feed-error-\(UUID().uuidString)")
        defer { server.stop(); try? FileManager.default.removeItem(at: directory) }
        let feed = try Feed(template: server.baseURL.absoluteString + "/list?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)))
        let failures = FailureLog()
        var configuration = Client.Configuration(baseURL: feed.url(forPage: 1), environment: [:])
        configuration.plugins = [failures]
        let loader = PageLoader(feed: feed, cacheDirectory: directory, client: Client(configuration))

        let expected = FeedError.noItems(keys: ["error", "retry"])
        await #expect(throws: expected) { try await loader.load(1) }
        #expect(failures.failures.withLock { $0 } == [.caller(CallerError(expected))])
        #expect(failures.failures.withLock { $0.map(\.description) } == [expected.description])
        // Nothing was kept for it.
        await #expect(throws: FeedError.request(.notCached)) { try await loader.load(1, policy: .returnCacheDontLoad) }
    }

    @Test func aFeedsErrorIsUnwrappedAndAnyOtherIsTheRequests() {
        let feed = FeedError.missingEnvironment(variable: "TOKEN", usedBy: "Authorization header")
        #expect(FeedError(.caller(CallerError(feed))) == feed)
        #expect(FeedError(.timedOut(host: "x.test")) == .request(.timedOut(host: "x.test")))
        #expect(FeedError(.timedOut(host: "x.test")).isConnectivityFailure)
        #expect(!feed.isConnectivityFailure && feed.requestError == nil)
        // The carried form is the caller's error, and a request's failure is carried as itself.
        #expect(feed.carried == .caller(CallerError(feed)))
        #expect(FeedError.request(.notCached).carried == .notCached)
    }

    @Test func carriedErrorsAreEqualOnlyWhenOfOneTypeAndEqual() {
        struct Other: Error, Sendable, Equatable, CustomStringConvertible { var description: String }
        let noItems = FeedError.noItems(keys: [])
        #expect(CallerError(noItems) == CallerError(FeedError.noItems(keys: [])))
        #expect(CallerError(noItems) != CallerError(FeedError.noItems(keys: ["a"])))
        #expect(CallerError(noItems) != CallerError(Other(description: noItems.description)))
    }
}
