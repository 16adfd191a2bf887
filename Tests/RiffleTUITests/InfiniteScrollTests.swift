import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("update: infinite scroll")
struct InfiniteScrollTests {
    @Test func reachingTheLastThirdPrefetchesTheNextPageOnce() {
        // Given page 1 of 10 items
        var state = Fixture.state()
        // When the selection moves down to index 5 (not yet the last third), nothing loads
        for _ in 0..<5 { #expect(state.press("j") == []) }
        // When it reaches index 6 (6 >= 10 * 2 / 3), page 2 is requested in the background
        #expect(state.press("j") == [.load(page: 2, policy: .returnCacheElseLoad)])
        // And not again while it is in flight
        #expect(state.press("j") == [])
        #expect(state.press("k") == [])
        #expect(state.feed.paging.requests.count == 1)
        // When it arrives it is appended; the selection stays
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.list.items.count == 20 && state.list.selection == 6)
    }

    @Test func movingPastTheLastItemLoadsAndSelectsTheNextPage() {
        // Given page 1 with a failed prefetch (so nothing is in flight)
        var state = Fixture.state()
        state.press("G")
        state.send(.pageFailed(page: 2, error: .request(.transport("timed out"))))
        state.send(.tick(Fixture.now))
        state.send(.tick(Fixture.now.addingTimeInterval(5)))
        #expect(state.press("k") == [], "a failed prefetch is not retried on every move")
        state.press("j")
        // When j is pressed on the last item
        #expect(state.press("j") == [.load(page: 2, policy: .returnCacheElseLoad)])
        // Then a spinner row shows under it
        #expect(App.view(state).trimmedLines[6] == " ⠋ loading page 2…")
        // And when the page arrives the selection moves onto its first item
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.list.selection == 10)
    }

    @Test func anEmptyPageEndsTheFeed() {
        // Given pages 1 and 2, and page 3 comes back empty
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("G")
        #expect(state.feed.paging.requests.map(\.page) == [3])
        state.send(.pageLoaded(Fixture.page(3, items: [])))
        // Then "end of feed" closes the list and nothing more is asked for
        #expect(state.feed.paging.endOfFeed)
        #expect(App.view(state).trimmedLines[6] == " end of feed")
        #expect(state.press("j") == [])
        // And n says it in one place: the list's last line, no toast over it saying it again
        state.press("g")
        #expect(state.press("n") == [] && state.press("n") == [] && state.press("n") == [])
        #expect(state.toasts.isEmpty)
        #expect(state.list.items.count == 20 && state.list.selection == 19)
        let lines = App.view(state).trimmedLines
        #expect(lines[6] == " end of feed" && lines.filter { $0.contains("end of feed") }.count == 1)
    }

    @Test func aPageTheLoaderEndedSaysWhyWhereTheFeedEnds() {
        // Given page 1, and page 2 comes back ended by the loader: it repeated page 1
        var state = Fixture.state(size: Size(width: 70, height: 8))
        state.press("G")
        var repeated = Fixture.page(2, items: [])
        repeated.isLastPage = true
        repeated.endReason = "the server returned page 1 again: it ignores {page}?"
        state.send(.pageLoaded(repeated))
        // Then the list ends with the reason, and n says it rather than asking
        #expect(state.feed.paging.endOfFeed)
        #expect(App.view(state).description.contains(" the server returned page 1 again: it ignores {page}?"))
        #expect(state.press("n") == [])
        #expect(App.view(state).description.components(separatedBy: "it ignores {page}?").count == 2, "said once")
    }

    @Test func aLastPageWithItemsSaysWhyTheFeedEndsBelowThem() {
        // Given page 1, and page 2 comes back with its items, last for want of a link though it counts more pages
        var state = Fixture.state(size: Size(width: 100, height: 8))
        state.press("G")
        var last = Fixture.page(2)
        last.isLastPage = true
        last.endReason = "the answers link to no page 3, though they count 50 pages: put {page} in the URL where the page number goes"
        state.send(.pageLoaded(last))
        // Then its items are listed, and the list ends with the reason instead of "end of feed"
        #expect(state.list.items.count == 20 && state.feed.paging.endOfFeed)
        state.press("G")
        #expect(App.view(state).description.contains(" the answers link to no page 3, though they count 50 pages"))
        #expect(!App.view(state).description.contains("end of feed"))
    }

    @Test func aPageThatAddedNothingNewIsNotFollowedByAPrefetch() {
        // Given page 1, and page 2 holding the same items (ids) again, not marked as the end
        var state = Fixture.state()
        #expect(state.press("G") == [.load(page: 2, policy: .returnCacheElseLoad)])
        state.send(.pageLoaded(Fixture.page(2, items: Fixture.items(10, page: 1))))
        // Then moving about in the last third asks for nothing more
        #expect(state.press("k") == [] && state.press("j") == [] && state.press("g") == [] && state.press("G") == [])
        #expect(state.feed.paging.requests.isEmpty)
        // But the user can still ask: n, or moving past the last item
        #expect(state.press("j") == [.load(page: 3, policy: .returnCacheElseLoad)])
    }

    @Test func statusBarShowsThePageOfTheSelection() {
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2, source: .cache)])
        state.size = Size(width: 60, height: 8)
        #expect(App.view(state).trimmedLines[7].hasPrefix(" demo feed · item 11/20 · page 2 · cache"))
        state.press("k")
        #expect(App.view(state).trimmedLines[7].hasPrefix(" demo feed · item 10/20 · page 1 · network"))
    }

    @Test func spinnerRowScrollsIntoViewAtTheEnd() {
        var state = Fixture.state()
        state.press("G")
        let lines = App.view(state).trimmedLines
        #expect(lines[5] == " p1 item 10")
        #expect(lines[6] == " ⠋ loading page 2…")
    }
}
