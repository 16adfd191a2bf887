import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("update: pages from the cache, stale and revalidated")
struct CacheSourceTests {
    @Test func aStalePageSaysOfflineWithItsAge() {
        // Given a browser waiting for page 1
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        // When the loader could not reach the server and answers with the page on disk, 2 hours old
        state.send(.pageLoaded(Fixture.page(1, source: .stale, fetchedAgo: 7200)))
        // Then the page shows, marked offline, and a toast says how old it is
        #expect(state.list.items.count == 10)
        #expect(state.toasts.last?.message == "offline: showing page 1 from 2h ago")
        #expect(App.view(state).lines.last?.contains("offline · fetched 2h ago") == true)
    }

    @Test func aRevalidatedCopyReplacesThePageShownFromDiskQuietly() {
        // Given page 1 shown straight from disk for the first frame, its request answered
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        state.send(.pageLoaded(Fixture.page(1, source: .cache, fetchedAgo: 7200)))
        state.press("j")
        // When the loader's revalidated copy arrives with nobody waiting for it
        let fresh = Fixture.page(1, items: Fixture.items(10, page: 1).reversed(), source: .revalidated, fetchedAgo: 0)
        state.send(.pageLoaded(fresh))
        // Then it replaces the page in place, the selected item stays selected where it now is, and no toast appears
        #expect(state.list.items == fresh.items)
        #expect(state.list.selectedItem?.title == "p1 item 2" && state.list.selection == 8)
        #expect(state.toasts.isEmpty)
        #expect(App.view(state).lines.last?.contains("network · fetched just now") == true)
    }

    @Test func aSecondDiskCopyOfAShownPageChangesNothing() {
        var state = Fixture.state()
        let before = state
        state.send(.pageLoaded(Fixture.page(1, items: [], source: .cache)))
        #expect(state == before)
    }

    @Test func aPageTheLoaderMarksLastEndsTheFeed() {
        // Given page 1 on screen
        var state = Fixture.state()
        // When n brings page 2, which the loader says is the last (a cursor feed with no next cursor)
        state.press("n")
        let last = Page(number: 2, items: Fixture.items(10, page: 2), data: Data(), source: .network,
                        fetchedAt: Fixture.now, status: 200, isLastPage: true)
        state.send(.pageLoaded(last))
        // Then it is shown, the list ends with "end of feed", and n asks for nothing more
        #expect(state.list.items.count == 20)
        #expect(state.feed.paging.endOfFeed)
        #expect(state.press("G").isEmpty)
        #expect(state.press("n").isEmpty)
        #expect(App.view(state).description.contains("end of feed"))
    }
}
