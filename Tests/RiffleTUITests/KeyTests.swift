import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("update: keys, ticks, toasts")
struct KeyTests {
    @Test func downAndJMoveAndStopAtTheEnd() {
        var state = Fixture.state()
        state.press(.down); state.press("j")
        #expect(state.list.selection == 2)
        for _ in 0..<20 { state.press("j") }
        #expect(state.list.selection == 9)
    }

    @Test func upAndKMoveAndStopAtTheTop() {
        var state = Fixture.state()
        for _ in 0..<5 { state.press(.down) }
        state.press(.up); state.press("k")
        #expect(state.list.selection == 3)
        for _ in 0..<20 { state.press("k") }
        #expect(state.list.selection == 0 && state.list.scrollOffset == 0)
    }

    @Test func movingScrollsToKeepTheSelectionVisible() {
        // Given 40x8: 6 list rows
        var state = Fixture.state()
        for _ in 0..<7 { state.press("j") }
        #expect(state.list.selection == 7 && state.list.scrollOffset == 2)
        for _ in 0..<7 { state.press("k") }
        #expect(state.list.selection == 0 && state.list.scrollOffset == 0)
    }

    @Test func resizeKeepsTheSelectionVisible() {
        var state = Fixture.state()
        for _ in 0..<5 { state.press("j") }
        state.send(.event(.resize(Size(width: 40, height: 4))))
        #expect(state.size == Size(width: 40, height: 4))
        #expect(state.list.scrollOffset == 4)
    }

    @Test func movingOnAnEmptyPageDoesNothing() {
        var state = Fixture.state(showing: Fixture.page(1, items: []))
        state.press("j")
        #expect(state.list.selection == 0)
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
        state.send(.pageFailed(page: 2, error: .request(.transport("timed out"))))
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
            state.send(.pageFailed(page: state.feed.paging.loading.page ?? 0, error: .request(.transport("e\(n)"))))
        }
        #expect(state.visibleToasts.map(\.message) == ["page 2: e4", "page 2: e5", "page 2: e6"])
    }
}
