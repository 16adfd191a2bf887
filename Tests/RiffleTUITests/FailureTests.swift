import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("a failed load says why until it is retried")
struct FailureTests {
    static let refused = FeedError.request(.cannotConnect(host: "127.0.0.1:1", reason: "connection refused"))

    /// Lets the toasts fade.
    static func fadeToasts(_ state: inout AppState) {
        state.send(.tick(Fixture.now))
        state.send(.tick(Fixture.now.addingTimeInterval(10)))
    }

    @Test func aFailedFirstPageKeepsItsReasonAndTheWayToRetry() {
        // Given the first page failed and its toast has faded
        var state = AppState(feedTitle: "demo", size: Size(width: 40, height: 10), now: Fixture.now)
        state.send(.start)
        state.send(.pageFailed(page: 1, error: Self.refused))
        Self.fadeToasts(&state)
        #expect(state.visibleToasts.isEmpty)
        // Then the list says why, wrapped, and how to retry: not "no items"
        let text = App.view(state).trimmedLines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(text == ["demo                            ? help", "page 1: could not connect to", "127.0.0.1:1 (connection refused)",
                         "r to retry", "demo · page 1 failed"])
        // When r is pressed, page 1 is asked for again and the list says it is loading
        #expect(state.press("r") == [.load(page: 1, policy: .returnCacheElseLoad)])
        #expect(state.feed.paging.failure == nil)
        #expect(App.view(state).description.contains("loading…"))
        // And its arrival replaces the message
        state.send(.pageLoaded(Fixture.page(1)))
        #expect(App.view(state).trimmedLines[1] == " p1 item 1")
    }

    @Test func aFailedNextPageLeavesALineUnderTheListAndRRetriesIt() {
        // Given page 1 on screen and page 2 failing, its toast faded
        var state = Fixture.state(size: Size(width: 60, height: 8))
        state.press("G")
        state.send(.pageFailed(page: 2, error: .request(.transport("HTTP 500 Internal Server Error"))))
        Self.fadeToasts(&state)
        // Then the line under the last item says why and how to retry
        let buffer = App.view(state)
        #expect(buffer.trimmedLines[6] == " page 2: HTTP 500 Internal Server Error · r to retry")
        #expect(buffer[1, 6].style.role == .placeholder)
        // When r is pressed, page 2 is asked for again (not a reload of page 1)
        #expect(state.press("r") == [.load(page: 2, policy: .returnCacheElseLoad)])
        #expect(App.view(state).trimmedLines[6] == " ⠋ loading page 2…")
        // And when it arrives, the line is gone
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.feed.paging.failure == nil && !App.view(state).description.contains("retry"))
    }

    @Test func aLongReasonIsCutBeforeTheWayToRetryIs() {
        var state = Fixture.state()
        state.press("G")
        state.send(.pageFailed(page: 2, error: .request(.transport("the server answered with something long and unhelpful"))))
        Self.fadeToasts(&state)
        #expect(App.view(state).trimmedLines[6] == " page 2: the server answe… · r to retry")
    }

    @Test func aFailedReloadKeepsThePageAndRStillReloads() {
        var state = Fixture.state()
        state.press("r")
        state.send(.pageFailed(page: 1, error: Self.refused))
        #expect(state.feed.paging.failure == nil && state.list.items.count == 10)
        #expect(state.press("r") == [.load(page: 1, policy: .reloadIgnoringCache)])
    }
}

@Suite("R while offline says what failed in one toast")
struct ReloadFailureTests {
    @Test func everyLoadedPageFailingTheSameWayIsOneToastNamingThePages() {
        // Given five pages loaded
        var state = Fixture.state(pages: (1...5).map { Fixture.page($0) })
        state.send(.tick(Fixture.now))
        // When R is pressed and every page fails the same way, one after another (offline)
        #expect(state.press("R").count == 5)
        for page in 1...5 { state.send(.pageFailed(page: page, error: FailureTests.refused)) }
        // Then one toast says which pages failed and why, and the log keeps that one line, not five
        #expect(state.visibleToasts.map(\.message) == ["pages 1–5: could not connect to 127.0.0.1:1 (connection refused)"])
        #expect(state.toasts.map(\.message) == ["pages 1–5: could not connect to 127.0.0.1:1 (connection refused)"])
        // And the pages stay
        #expect(state.list.items.count == 50 && state.feed.paging.reloads == nil)
    }

    @Test func pagesFailingForDifferentReasonsSayEachReasonOnceAndOneFailureStaysAPage() {
        var state = Fixture.state(pages: (1...4).map { Fixture.page($0) })
        state.press("R")
        state.send(.pageLoaded(Fixture.page(1)))
        state.send(.pageFailed(page: 2, error: .request(.transport("HTTP 500 Internal Server Error"))))
        state.send(.pageFailed(page: 3, error: FailureTests.refused))
        state.send(.pageFailed(page: 4, error: FailureTests.refused))
        #expect(state.visibleToasts.map(\.message) == ["page 2: HTTP 500 Internal Server Error",
                                                      "pages 3, 4: could not connect to 127.0.0.1:1 (connection refused)",
                                                      "no new items"])
    }

    @Test func aSecondROfflineTakesTheFirstOnesPlace() {
        var state = Fixture.state(pages: (1...2).map { Fixture.page($0) })
        for _ in 0..<2 {
            state.press("R")
            for page in 1...2 { state.send(.pageFailed(page: page, error: FailureTests.refused)) }
        }
        #expect(state.visibleToasts.map(\.message) == ["pages 1, 2: could not connect to 127.0.0.1:1 (connection refused)"])
        #expect(state.toasts.count == 2)
    }
}

extension ReloadFailureTests {
    @Test func theGrowingToastFadesLikeAnyOther() {
        // Given R, page 1 failing, then another toast, then page 2 failing the same way after a tick
        var state = Fixture.state(pages: (1...3).map { Fixture.page($0) })
        state.press("R")
        state.send(.pageFailed(page: 1, error: FailureTests.refused))
        state.send(.tick(Fixture.now))
        state.send(.pageFailed(page: 2, error: .request(.transport("HTTP 500 Internal Server Error"))))
        state.send(.tick(Fixture.now.addingTimeInterval(1)))
        state.send(.pageFailed(page: 3, error: FailureTests.refused))
        state.send(.tick(Fixture.now.addingTimeInterval(2)))
        #expect(state.visibleToasts.map(\.message) == ["page 2: HTTP 500 Internal Server Error",
                                                      "pages 1, 3: could not connect to 127.0.0.1:1 (connection refused)"])
        // Then three seconds after the last failure every toast is gone
        state.send(.tick(Fixture.now.addingTimeInterval(5.1)))
        #expect(state.visibleToasts.isEmpty)
    }
}
