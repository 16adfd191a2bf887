import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("status bar")
struct StatusBarTests {
    static let wide = Size(width: 80, height: 8)

    static func statusLine(_ state: AppState) -> String { App.view(state).trimmedLines[7] }

    @Test func networkPage() {
        let state = Fixture.state(showing: Fixture.page(1, source: .network, fetchedAgo: 42), size: Self.wide)
        #expect(Self.statusLine(state) == " demo feed · item 1/10 · page 1 · network · fetched 42s ago")
    }

    @Test func freshCachedPage() {
        let state = Fixture.state(showing: Fixture.page(1, source: .cache, fetchedAgo: 600), size: Self.wide)
        #expect(Self.statusLine(state) == " demo feed · item 1/10 · page 1 · cache · fetched 10m ago")
    }

    @Test func oldCachedPageIsStale() {
        let state = Fixture.state(showing: Fixture.page(1, source: .cache, fetchedAgo: 2 * 3600), size: Self.wide)
        #expect(Self.statusLine(state) == " demo feed · item 1/10 · page 1 · stale · fetched 2h ago")
    }

    @Test func aCachedPageIsStaleWhenItsOwnFreshnessEndsNotAfterAFixedHour() {
        // The server allowed a day: two hours old is still fresh.
        var page = Fixture.page(1, source: .cache, fetchedAgo: 2 * 3600)
        page.freshUntil = Fixture.now.addingTimeInterval(22 * 3600)
        #expect(Self.statusLine(Fixture.state(showing: page, size: Self.wide)) == " demo feed · item 1/10 · page 1 · cache · fetched 2h ago")
        // The feed's maxAge was five minutes: ten minutes old is stale.
        page = Fixture.page(1, source: .cache, fetchedAgo: 600)
        page.freshUntil = Fixture.now.addingTimeInterval(-300)
        #expect(Self.statusLine(Fixture.state(showing: page, size: Self.wide)) == " demo feed · item 1/10 · page 1 · stale · fetched 10m ago")
    }

    @Test func connectionFailureShowsOfflineUntilTheNetworkAnswers() {
        // Given a cached page and a reload that cannot connect
        var state = Fixture.state(showing: Fixture.page(1, source: .cache), size: Self.wide)
        state.press("r")
        state.send(.pageFailed(page: 1, error: .request(.cannotConnect(host: "localhost:9", reason: "connection refused"))))
        // Then the bar says offline
        #expect(Self.statusLine(state) == " demo feed · item 1/10 · page 1 · offline · fetched 3m ago")
        // When a page comes from the network, it no longer does
        state.press("r")
        state.send(.pageLoaded(Fixture.page(1, source: .network, fetchedAgo: 0)))
        #expect(Self.statusLine(state) == " demo feed · item 1/10 · page 1 · network · fetched just now")
    }

    @Test func commentsFromTheNetworkEndOffline() {
        // Given a list that went offline (a reload could not connect)
        var state = Fixture.state(showing: Fixture.page(1, source: .cache), size: Self.wide)
        state.feed.commentsAvailable = true
        state.press("r")
        state.send(.pageFailed(page: 1, error: .request(.cannotConnect(host: "localhost:9", reason: "connection refused"))))
        #expect(Self.statusLine(state).contains("offline"))
        // When an item's comments come from the network (or from its cache: nothing is known)
        let key = state.list.selectedKey ?? ""
        state.press("c")
        var cached = CommentThread(comments: [.init(depth: 0, author: "a", text: "kept", createdAt: nil)])
        cached.source = .cache
        state.send(.commentsLoaded(item: key, cached))
        state.press("q")
        #expect(Self.statusLine(state).contains("offline"))
        state.press("c")
        state.send(.commentsLoaded(item: key, CommentThread(comments: [.init(depth: 0, author: "a", text: "hi", createdAt: nil)])))
        state.press("q")
        // Then the list no longer says offline: the network answered
        #expect(Self.statusLine(state) == " demo feed · item 1/10 · page 1 · 9 new · cache · fetched 3m ago")
        // And comments that cannot connect say offline again
        state.press("c")
        state.send(.commentsFailed(item: key, .request(.cannotConnect(host: "localhost:9", reason: "connection refused"))))
        state.press("q")
        #expect(Self.statusLine(state).contains("offline"))
    }

    @Test func anHTTPErrorIsNotOffline() {
        var state = Fixture.state(showing: Fixture.page(1), size: Self.wide)
        state.press("r")
        state.send(.pageFailed(page: 1, error: .request(.httpStatus(code: 500, excerpt: ""))))
        #expect(!state.feed.isOffline)
    }

    @Test func aTimeoutOrAStallIsNotOffline() {
        for failure: RiffleError in [.timedOut(host: "x.test"), .stalled(host: "x.test", seconds: 20)] {
            var state = Fixture.state(showing: Fixture.page(1, source: .cache), size: Self.wide)
            state.press("r")
            state.send(.pageFailed(page: 1, error: .request(failure)))
            #expect(!state.feed.isOffline, "\(failure)")
            #expect(!Self.statusLine(state).contains("offline"), "\(failure)")
        }
    }

    @Test func onlyAnUnreachableNetworkOrHostIsOffline() {
        let unreachable: [FeedError] = [.cannotConnect(host: "h", reason: "r"), .dnsFailure(host: "h"), .offline].map { .request($0) }
        let reachedOrUnknown: [FeedError] = [.timedOut(host: "h:1"), .stalled(host: "h", seconds: 20), .tls(host: "h", reason: "r"),
                                             .httpStatus(code: 404, excerpt: "x"), .invalidJSON(offset: 1, reason: "r"), .notCached,
                                             .envelope(message: "timed out")].map { .request($0) } + [.noItems(keys: [])]
        #expect(unreachable.allSatisfy { $0.isOffline })
        #expect(!reachedOrUnknown.contains { $0.isOffline })
    }

    @Test func shortOfSpaceTheFeedNameThenTheCountGo() {
        let bar = StatusBar(facts: ["demo feed", "page 1", "10 items", "network", "fetched 3m ago"], dropOrder: [0, 2])
        #expect(bar.text(fitting: 80) == "demo feed · page 1 · 10 items · network · fetched 3m ago")
        #expect(bar.text(fitting: 45) == "page 1 · 10 items · network · fetched 3m ago")
        #expect(bar.text(fitting: 40) == "page 1 · network · fetched 3m ago")
    }
}
