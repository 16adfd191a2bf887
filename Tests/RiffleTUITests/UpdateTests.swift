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
        #expect(state.loading == .loading(page: 1, policy: .returnCacheElseLoad))
    }

    @Test func loadedPageReplacesTheList() {
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        state.send(.pageLoaded(Fixture.page(1, source: .disk)))
        #expect(state.items.count == 10)
        #expect(state.loading == .idle)
        #expect(state.pageInfo == PageInfo(source: .disk, fetchedAt: Fixture.now.addingTimeInterval(-180), status: 200))
    }

    @Test func nextPageKeepsCurrentPageWhileLoadingThenSelectsTop() {
        // Given page 1 with the 4th row selected
        var state = Fixture.state()
        state.press("j"); state.press("j"); state.press("j")
        // When n is pressed
        let effects = state.press("n")
        // Then page 2 is requested and page 1 stays, still navigable
        #expect(effects == [.load(page: 2, policy: .returnCacheElseLoad)])
        #expect(state.pageNumber == 1 && state.items == Fixture.items(10, page: 1))
        state.press("j")
        #expect(state.selection == 4)
        // When page 2 arrives, it replaces the list with the selection at the top
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.pageNumber == 2 && state.items == Fixture.items(10, page: 2))
        #expect(state.selection == 0 && state.scrollOffset == 0)
    }

    @Test func previousPageStopsAtOne() {
        var state = Fixture.state(showing: Fixture.page(2))
        #expect(state.press("p") == [.load(page: 1, policy: .returnCacheElseLoad)])
        state.send(.pageLoaded(Fixture.page(1)))
        #expect(state.press("p") == [])
        #expect(state.loading == .idle)
    }

    @Test func reloadBypassesCacheAndKeepsSelectionClamped() {
        // Given page 1 with row 8 selected
        var state = Fixture.state()
        for _ in 0..<8 { state.press(.down) }
        // When r is pressed and the page comes back shorter
        #expect(state.press("r") == [.load(page: 1, policy: .reloadIgnoringCache)])
        state.send(.pageLoaded(Fixture.page(1, items: Fixture.items(5))))
        // Then the selection is kept, clamped to the new last row
        #expect(state.selection == 4)
        #expect(state.items.count == 5)
    }

    @Test func supersededPageNeverReachesTheScreen() {
        // Given page 1, and n pressed twice quickly
        var state = Fixture.state()
        #expect(state.press("n") == [.load(page: 2, policy: .returnCacheElseLoad)])
        #expect(state.press("n") == [.load(page: 3, policy: .returnCacheElseLoad)])
        // When page 2's answer arrives late
        let before = state
        state.send(.pageLoaded(Fixture.page(2)))
        // Then nothing changes: page 3 is still awaited and page 1 still shown
        #expect(state == before)
        #expect(state.loading.page == 3)
        // And a failure of page 2 is not reported either
        state.send(.pageFailed(page: 2, message: "HTTP 500"))
        #expect(state.toasts.isEmpty)
        // When page 3 arrives it is shown
        state.send(.pageLoaded(Fixture.page(3)))
        #expect(state.pageNumber == 3 && state.loading == .idle)
    }

    @Test func previousAfterNextCountsFromTheWantedPage() {
        var state = Fixture.state(showing: Fixture.page(4))
        state.press("p"); state.press("p")
        #expect(state.loading.page == 2)
    }

    @Test func failureRaisesAToastAndKeepsThePage() {
        var state = Fixture.state()
        state.press("n")
        state.send(.pageFailed(page: 2, message: "could not connect to localhost:1 (connection refused)"))
        #expect(state.toasts.map(\.message) == ["page 2: could not connect to localhost:1 (connection refused)"])
        #expect(state.pageNumber == 1 && state.items.count == 10)
        #expect(state.loading == .idle)
    }
}

@Suite("update: keys, ticks, toasts")
struct KeyTests {
    @Test func downAndJMoveAndStopAtTheEnd() {
        var state = Fixture.state()
        state.press(.down); state.press("j")
        #expect(state.selection == 2)
        for _ in 0..<20 { state.press("j") }
        #expect(state.selection == 9)
    }

    @Test func upAndKMoveAndStopAtTheTop() {
        var state = Fixture.state()
        for _ in 0..<5 { state.press(.down) }
        state.press(.up); state.press("k")
        #expect(state.selection == 3)
        for _ in 0..<20 { state.press("k") }
        #expect(state.selection == 0 && state.scrollOffset == 0)
    }

    @Test func movingScrollsToKeepTheSelectionVisible() {
        // Given 40x8: 6 list rows
        var state = Fixture.state()
        for _ in 0..<7 { state.press("j") }
        #expect(state.selection == 7 && state.scrollOffset == 2)
        for _ in 0..<7 { state.press("k") }
        #expect(state.selection == 0 && state.scrollOffset == 0)
    }

    @Test func resizeKeepsTheSelectionVisible() {
        var state = Fixture.state()
        for _ in 0..<5 { state.press("j") }
        state.send(.event(.resize(Size(width: 40, height: 4))))
        #expect(state.size == Size(width: 40, height: 4))
        #expect(state.scrollOffset == 4)
    }

    @Test func movingOnAnEmptyPageDoesNothing() {
        var state = Fixture.state(showing: Fixture.page(1, items: []))
        state.press("j")
        #expect(state.selection == 0)
    }

    @Test func qQuits() {
        var state = Fixture.state()
        #expect(state.press("q") == [.quit])
        #expect(state.shouldQuit)
    }

    @Test func tickAdvancesTheSpinnerOnlyWhileLoading() {
        var state = Fixture.state()
        state.send(.tick(Fixture.now.addingTimeInterval(1)))
        #expect(state.spinnerFrame == 0)
        #expect(state.now == Fixture.now.addingTimeInterval(1))
        state.press("n")
        state.send(.tick(Fixture.now.addingTimeInterval(2)))
        #expect(state.spinnerFrame == 1)
        #expect(state.isAnimating)
    }

    @Test func toastFadesThreeSecondsAfterTheFirstTick() {
        // Given a failure raised while `now` is stale
        var state = Fixture.state()
        state.press("n")
        state.send(.pageFailed(page: 2, message: "timed out"))
        #expect(state.visibleToasts.count == 1)
        // When ticks arrive: the toast's clock starts at the first one
        let t0 = Fixture.now.addingTimeInterval(600)
        state.send(.tick(t0))
        state.send(.tick(t0.addingTimeInterval(2.9)))
        #expect(state.visibleToasts.count == 1)
        state.send(.tick(t0.addingTimeInterval(3.1)))
        // Then it is gone from the screen but kept in the log
        #expect(state.visibleToasts.isEmpty)
        #expect(state.toasts.count == 1)
        #expect(!state.isAnimating)
    }

    @Test func atMostThreeToastsNewestLast() {
        var state = Fixture.state()
        for n in 2...6 {
            state.press("n")
            state.send(.pageFailed(page: state.loading.page ?? 0, message: "e\(n)"))
        }
        #expect(state.visibleToasts.map(\.message) == ["page 2: e4", "page 2: e5", "page 2: e6"])
    }
}
