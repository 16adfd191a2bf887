import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("update: the feed list refreshes its feeds (R, r)")
struct FeedRefreshTests {
    static let alpha = FeedEntry(name: "alpha", description: "mine", origin: .feedsFile)
    static let hn = FeedEntry(name: "hn", description: "Hacker News", origin: .preset)
    static let lobsters = FeedEntry(name: "lobsters", description: "Lobsters", origin: .preset)
    static let reddit = FeedEntry(name: "reddit", description: "a subreddit", argument: "SUBREDDIT", origin: .preset)
    static let demo = FeedEntry(name: "demo", description: "the demo", origin: .demo)

    static func feedList() -> AppState {
        var state = AppState.feedList(size: Size(width: 90, height: 10), now: Fixture.now)
        state.send(.start)
        state.send(.feedsListed([alpha, hn, lobsters, reddit, demo]))
        state.send(.feedSummarized(name: "alpha", FeedSummary(unseen: 3, fetchedAt: Fixture.now.addingTimeInterval(-7200))))
        state.send(.feedSummarized(name: "hn", FeedSummary(unseen: nil, fetchedAt: nil)))
        state.send(.feedSummarized(name: "lobsters", FeedSummary(unseen: 4, fetchedAt: Fixture.now.addingTimeInterval(-600))))
        return state
    }

    static func row(_ state: AppState, _ name: String) -> String {
        App.view(state).trimmedLines.first { $0.hasPrefix(" \(name) ") } ?? ""
    }

    @Test func capitalRRefreshesTheFeedsYouReadAndShowsWhatArrivedInEach() {
        var state = Self.feedList()
        // When R is pressed: the feeds file's feed and the preset read before; not hn (never read), reddit (no argument), the demo
        #expect(state.press("R") == [.refreshFeeds([Self.alpha, Self.lobsters])])
        #expect(App.view(state).trimmedLines[9].hasPrefix(" refreshing 0/2…"))
        #expect(state.isAnimating)
        // And pressing it again while they run asks for nothing more
        #expect(state.press("R") == [])
        // When alpha comes back with two items never listed, its row says so
        state.send(.feedRefreshed(name: "alpha", FeedSummary(unseen: 5, fetchedAt: Fixture.now, arrived: 2)))
        #expect(Self.row(state, "alpha").contains("5 new (+2)") && Self.row(state, "alpha").contains("fetched just now"))
        #expect(App.view(state).trimmedLines[9].hasPrefix(" refreshing 1/2…") && state.toasts.isEmpty)
        // When lobsters fails, its row says why and keeps what the disk said; a toast sums up
        state.send(.feedRefreshed(name: "lobsters", FeedSummary(unseen: nil, fetchedAt: nil, failure: "HTTP 503 Service Unavailable")))
        let lobsters = Self.row(state, "lobsters")
        #expect(lobsters.contains("refresh failed") && lobsters.contains("fetched 10m ago") && lobsters.contains("HTTP 503"), "\(lobsters)")
        #expect(state.toasts.last?.message == "refreshed 2 feeds: 2 new items · 1 failed")
        #expect(App.view(state).trimmedLines[9].hasPrefix(" 5 feeds") && !state.isAnimating || !state.visibleToasts.isEmpty)
    }

    @Test func rRefreshesTheSelectedFeedEvenAPresetNeverReadButNotOneWithoutItsArgument() {
        var state = Self.feedList()
        state.press("j")
        #expect(state.press("r") == [.refreshFeeds([Self.hn])])
        state.send(.feedRefreshed(name: "hn", FeedSummary(unseen: 30, fetchedAt: Fixture.now, arrived: 30)))
        #expect(state.toasts.last?.message == "refreshed 1 feed: 30 new items")
        state.press("j"); state.press("j")
        #expect(state.press("r") == [])
        #expect(state.toasts.last?.message == "reddit needs its SUBREDDIT: open it to read it")
    }

    @Test func nothingToRefreshIsSaid() {
        var state = AppState.feedList(size: Size(width: 90, height: 10), now: Fixture.now)
        state.send(.start)
        state.send(.feedsListed([Self.hn, Self.demo]))
        #expect(state.press("R") == [])
        #expect(state.toasts.last?.message == "no feed to refresh: open one first")
    }
}

extension FeedRefreshTests {
    @Test func aFailedRefreshAndALongCountKeepASpaceBeforeWhenTheFeedWasFetched() {
        // Given a feed whose refresh failed and one that brought many items
        var state = Self.feedList()
        state.press("R")
        state.send(.feedRefreshed(name: "lobsters", FeedSummary(unseen: nil, fetchedAt: nil, failure: "HTTP 503 Service Unavailable")))
        state.send(.feedRefreshed(name: "alpha", FeedSummary(unseen: 1234, fetchedAt: Fixture.now, arrived: 1234)))
        // Then each column is apart from the next: not "refresh failedfetched 10m ago"
        func columns(_ name: String) -> [String] {
            Self.row(state, name).components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        #expect(columns("lobsters") == ["lobsters", "refresh failed", "fetched 10m ago", "HTTP 503 Service Unavailable"])
        #expect(columns("alpha") == ["alpha", "1234 new (+1234)", "fetched just now", "mine"])
    }
}
