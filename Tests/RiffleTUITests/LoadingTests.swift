import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("update: loading pages")
struct LoadingTests {
    @Test func startLoadsPageOneFromCacheElseNetwork() {
        // Given a fresh browser
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        // When it starts
        let effects = state.send(.start)
        // Then page 1 is requested, cache first
        #expect(effects == [.load(page: 1, policy: .returnCacheElseLoad)])
        #expect(state.feed.paging.loading == .loading(page: 1, policy: .returnCacheElseLoad))
    }

    @Test func loadedPageReplacesTheList() {
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        state.send(.pageLoaded(Fixture.page(1, source: .cache)))
        #expect(state.list.items.count == 10)
        #expect(state.feed.paging.loading == .idle)
        #expect(state.list.pageInfo == PageInfo(source: .cache, fetchedAt: Fixture.now.addingTimeInterval(-180), status: 200))
    }

    @Test func nextPageKeepsTheListWhileLoadingThenSelectsItsFirstItem() {
        // Given page 1 with the 2nd row selected
        var state = Fixture.state()
        state.press("j")
        // When n is pressed
        let effects = state.press("n")
        // Then page 2 is requested and page 1 stays, with a spinner row under it
        #expect(effects == [.load(page: 2, policy: .returnCacheElseLoad)])
        #expect(state.list.items == Fixture.items(10, page: 1) && state.list.selection == 1)
        #expect(state.feed.paging.isAppending)
        // When page 2 arrives, it is added below and its first item selected
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.list.items == Fixture.items(10, page: 1) + Fixture.items(10, page: 2))
        #expect(state.list.selection == 10 && state.list.pageNumber == 2)
    }

    @Test func keysKeepWorkingWhileLoadingAndAMoveCancelsTheJump() {
        // Given n pressed on page 1
        var state = Fixture.state()
        state.press("n")
        // When the user moves before page 2 arrives
        state.press("j"); state.press("j")
        state.send(.pageLoaded(Fixture.page(2)))
        // Then the page is added but the selection stays where the user put it
        #expect(state.list.selection == 2 && state.list.items.count == 20)
    }

    @Test func nextOnALoadedPageJumpsWithoutLoading() {
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("g")
        #expect(state.press("n") == [])
        #expect(state.list.selection == 10 && state.list.pageNumber == 2)
    }

    @Test func previousPageSelectsItsFirstItemAndStopsAtOne() {
        // Given pages 1 and 2, the selection in page 2
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("j"); state.press("j")
        // When p is pressed, page 1's first item is selected without a load
        #expect(state.press("p") == [])
        #expect(state.list.selection == 0 && state.list.pageNumber == 1)
        // And p again stays there
        state.press("p")
        #expect(state.list.selection == 0 && state.feed.paging.requests.isEmpty)
    }

    @Test func reloadBypassesCacheAndKeepsWhatThePageNoLongerHolds() {
        // Given page 1 with row 8 selected
        var state = Fixture.state()
        for _ in 0..<8 { state.press(.down) }
        state.send(.pageLoaded(Fixture.page(2)))
        // When r is pressed and the page comes back shorter
        #expect(state.press("r") == [.load(page: 1, policy: .reloadIgnoringCache)])
        #expect(state.press("r") == [], "a reload in flight is not asked for twice")
        state.send(.pageLoaded(Fixture.page(1, items: Fixture.items(5))))
        // Then nothing is lost: the five it no longer holds lead page 2, the selected one still selected
        #expect(state.list.items.count == 20 && state.list.firstIndex(ofPage: 2) == 5)
        #expect(state.list.items[5].title == "p1 item 6" && state.list.items[10].title == "p2 item 1")
        #expect(state.list.selection == 8 && state.list.selectedItem?.title == "p1 item 9")
    }

    @Test func reloadReloadsThePageOfTheSelection() {
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("j")
        #expect(state.press("r") == [.load(page: 2, policy: .reloadIgnoringCache)])
        state.send(.pageLoaded(Fixture.page(2, items: Fixture.items(10, page: 9))))
        // (page 2 is the last: what it no longer holds follows its new items, the selected item with it)
        #expect(state.list.items[10].title == "p9 item 1" && state.list.items[20].title == "p2 item 1")
        #expect(state.list.selectedItem?.title == "p2 item 2")
    }

    @Test func capitalRReloadsEveryLoadedPageInOrder() {
        // Given three loaded pages
        var state = Fixture.state(pages: (1...3).map { Fixture.page($0) })
        state.press("k")
        // When R is pressed, then each page is reloaded from the network, in order
        #expect(state.press("R") == (1...3).map { .load(page: $0, policy: .reloadIgnoringCache) })
        // And pressing it again while they are in flight asks for nothing more
        #expect(state.press("R") == [])
        // When the answers arrive (in any order) each replaces its page; what no page holds any more
        // follows the last page, and the selected item stays selected
        state.send(.pageLoaded(Fixture.page(3, items: Fixture.items(4, page: 33))))
        state.send(.pageLoaded(Fixture.page(1, items: Fixture.items(10, page: 11))))
        state.send(.pageLoaded(Fixture.page(2, items: Fixture.items(10, page: 22))))
        #expect(state.list.items.map(\.title).first == "p11 item 1")
        #expect(Array(state.list.items.map(\.title)[10..<25]) == Fixture.items(10, page: 22).map(\.title) + Fixture.items(4, page: 33).map(\.title) + ["p3 item 1"])
        #expect(state.list.items.count == 54 && state.list.items[state.list.selection].title == "p2 item 10")
        #expect(!state.feed.paging.requests.contains { $0.purpose == .reload })
    }

    @Test func reloadBeforeAnythingLoadedRetriesPageOne() {
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        state.send(.pageFailed(page: 1, error: .request(.cannotConnect(host: "localhost", reason: "connection refused"))))
        #expect(state.press("R") == [.load(page: 1, policy: .returnCacheElseLoad)])
        state.send(.pageFailed(page: 1, error: .request(.cannotConnect(host: "localhost", reason: "connection refused"))))
        #expect(state.press("r") == [.load(page: 1, policy: .returnCacheElseLoad)])
    }

    @Test func reloadOfAnEarlierPageKeepsTheSelectedItem() {
        // Given the selection on page 2's 2nd item, and page 1 reloaded with 3 items fewer
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("j")
        state.press("p"); state.press("r"); state.press("n")
        state.press("j")
        state.send(.pageLoaded(Fixture.page(1, items: Fixture.items(7))))
        // Then the same item stays selected
        #expect(state.list.items[state.list.selection].title == "p2 item 2")
    }

    @Test func supersededJumpNeverReachesTheScreen() {
        // Given page 1, and n pressed twice quickly
        var state = Fixture.state()
        #expect(state.press("n") == [.load(page: 2, policy: .returnCacheElseLoad)])
        #expect(state.press("n") == [], "page 3 can only follow page 2")
        #expect(state.feed.paging.pendingJump == 3)
        // When page 2's answer arrives
        let effects = state.send(.pageLoaded(Fixture.page(2)))
        // Then it joins the list below (and the reading log), the selection does not flash to it, and page 3 is asked for
        #expect(effects == [.record(Fixture.page(2).items), .load(page: 3, policy: .returnCacheElseLoad)])
        #expect(state.list.selection == 0 && state.list.scrollOffset == 0)
        #expect(App.view(state).trimmedLines[1] == " p1 item 1")
        // When page 3 arrives, its first item is selected
        state.send(.pageLoaded(Fixture.page(3)))
        #expect(state.list.selection == 20 && state.list.pageNumber == 3)
    }

    @Test(arguments: [false, true])
    func aQuickJumpThatStopsShortGoesAsFarAsItGot(pageFails: Bool) {
        // Given page 1, and n pressed five times quickly
        var state = Fixture.state()
        for _ in 0..<5 { state.press("n") }
        #expect(state.feed.paging.pendingJump == 6)
        // When page 2 arrives (page 3 is asked for, the selection waits), then page 3 fails or is empty (the feed's end)
        #expect(state.send(.pageLoaded(Fixture.page(2))).contains(.load(page: 3, policy: .returnCacheElseLoad)))
        #expect(state.list.pageNumber == 1)
        if pageFails {
            state.send(.pageFailed(page: 3, error: .request(.httpStatus(code: 500, excerpt: "boom"))))
        } else {
            state.send(.pageLoaded(Fixture.page(3, items: [])))
        }
        // Then the selection is where the n's got: page 2's first item, at the top (before: page 1's first)
        #expect(state.list.pageNumber == 2 && state.list.selection == 10, "page \(state.list.pageNumber), row \(state.list.selection)")
        #expect(state.feed.paging.pendingJump == nil)
        #expect(App.view(state).trimmedLines[1].contains("page 2") || App.view(state).trimmedLines[2] == " p2 item 1", "\(App.view(state))")
    }

    @Test func answersNobodyAskedForAreDropped() {
        // Given page 1 and nothing in flight
        var state = Fixture.state()
        let before = state
        // When a page or a failure arrives that no request is waiting for
        state.send(.pageLoaded(Fixture.page(5)))
        state.send(.pageFailed(page: 7, error: .request(.transport("HTTP 500"))))
        // Then nothing changes
        #expect(state == before)
    }

    @Test func nextNextPreviousWaitsForPageTwo() {
        // Given n pressed twice, then p, before anything arrived
        var state = Fixture.state()
        state.press("n"); state.press("n"); state.press("p")
        // Then the jump is to page 2, which is in flight
        #expect(state.feed.paging.pendingJump == 2 && state.feed.paging.requests.map(\.page) == [2])
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.list.selection == 10 && state.feed.paging.pendingJump == nil)
    }

    @Test func nextUnderAFilterSkipsPagesWithNoMatch() {
        // Given pages 1-3 and a filter matching items of pages 1 and 3 only
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2, items: [Fixture.item("other")]), Fixture.page(3)])
        state.press("/")
        for c in "item 5" { state.press(.character(c)) }
        state.press(.enter)
        state.press("g")
        #expect(state.list.selectedItem?.title == "p1 item 5")
        // When n is pressed, then the first match after page 2's start is selected, on page 3
        #expect(state.press("n") == [])
        #expect(state.list.selectedItem?.title == "p3 item 5" && state.list.pageNumber == 3)
    }

    @Test func previousAfterNextCountsFromTheWantedPage() {
        var state = Fixture.state(pages: (1...4).map { Fixture.page($0) })
        state.press("p"); state.press("p")
        #expect(state.list.pageNumber == 2 && state.list.selection == 10)
    }

    @Test func failureRaisesAToastAndKeepsThePage() {
        var state = Fixture.state()
        state.press("n")
        state.send(.pageFailed(page: 2, error: .request(.cannotConnect(host: "localhost:1", reason: "connection refused"))))
        #expect(state.toasts.map(\.message) == ["page 2: could not connect to localhost:1 (connection refused)"])
        #expect(state.list.pageNumber == 1 && state.list.items.count == 10)
        #expect(state.feed.paging.loading == .idle)
    }
}
