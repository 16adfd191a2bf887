import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("toasts: one corner, one per subject, gone in the order they came")
struct ToastTests {
    @Test func sPressedTwiceLeavesOneToastTheSecond() {
        // Given the list
        var state = Fixture.state()
        // When the order is changed twice
        state.press("s")
        state.press("s")
        // Then one toast says the order now; the log keeps both
        #expect(state.visibleToasts.map(\.message) == ["sorted: top score first"])
        #expect(state.toasts.map(\.message) == ["sorted: newest first", "sorted: top score first"])
        #expect(App.view(state).description.components(separatedBy: "sorted:").count == 2)
        // And w twice: one toast about watching, beside the order's
        state.press("w")
        state.press("w")
        #expect(state.visibleToasts.map(\.message) == ["sorted: top score first", "stopped watching"])
    }

    @Test func theSameMessageAgainIsShownOnceWithAFreshClock() {
        // Given "no link" shown for 2 s
        var state = Fixture.state(showing: Fixture.page(1, items: [Fixture.item("no link here")]))
        state.press("o")
        state.send(.tick(Fixture.now))
        state.send(.tick(Fixture.now.addingTimeInterval(2)))
        // When o is pressed again, and again
        state.press("o")
        state.press("o")
        // Then one toast shows it, and it stays its full time from the last press
        #expect(state.visibleToasts.map(\.message) == ["no link"])
        state.send(.tick(Fixture.now.addingTimeInterval(2.5)))
        state.send(.tick(Fixture.now.addingTimeInterval(5.4)))
        #expect(state.visibleToasts.map(\.message) == ["no link"])
        state.send(.tick(Fixture.now.addingTimeInterval(5.6)))
        #expect(state.visibleToasts.isEmpty)
    }

    @Test func toastsExpireOneByOneInTheOrderTheyCame() {
        // Given three messages a second apart
        var state = Fixture.state()
        for (n, message) in ["one", "two", "three"].enumerated() {
            state.send(.notice(message))
            state.send(.tick(Fixture.now.addingTimeInterval(Double(n))))
        }
        #expect(state.visibleToasts.map(\.message) == ["one", "two", "three"])
        // Then each goes three seconds after it came, oldest first, the others staying in the corner
        state.send(.tick(Fixture.now.addingTimeInterval(3.05)))
        #expect(state.visibleToasts.map(\.message) == ["two", "three"])
        #expect(Array(App.view(state).trimmedLines[5...6]).map { $0.split(separator: " ").last } == ["two", "three"])
        state.send(.tick(Fixture.now.addingTimeInterval(4.05)))
        #expect(state.visibleToasts.map(\.message) == ["three"])
        state.send(.tick(Fixture.now.addingTimeInterval(5.05)))
        #expect(state.visibleToasts.isEmpty)
        #expect(state.toasts.count == 3, "all three stay in the log")
    }

    @Test func theBlockIsAsWideAsItsLongestMessageAgainstTheRightEdge() {
        // Given two messages of different lengths on a 40-column list
        var state = Fixture.state()
        state.send(.notice("short"))
        state.send(.notice("a somewhat longer message"))
        let buffer = App.view(state)
        // Then both rows are toast from column 13 (27 = 25 + a margin each side) to the edge
        for y in 5...6 {
            #expect((0..<40).map { buffer[$0, y].style.role == .toast } == (0..<40).map { $0 >= 13 }, "row \(y)")
        }
        #expect(buffer.trimmedLines[5] == " p1 item 5    short" && buffer.trimmedLines[6] == " p1 item 6    a somewhat longer message")
        // And a message wider than the list is cut to it
        state.send(.notice(String(repeating: "x", count: 60)))
        #expect(App.view(state).trimmedLines[6] == " " + String(repeating: "x", count: 37) + "…")
    }

    @Test func anEmptyFeedSaysSoAndAFailedFirstPageSaysItFailed() {
        // Given a feed whose first page is empty
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        state.send(.seenLoaded([]))
        state.send(.pageLoaded(Fixture.page(1, items: [])))
        // Then the status bar says it has no items, not "0 items · page 1 · nothing new"
        #expect(App.view(state).trimmedLines[7] == " demo · no items")
        // And a feed whose first page failed says that
        var failed = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        failed.send(.start)
        failed.send(.seenLoaded([]))
        failed.send(.pageFailed(page: 1, error: .request(.transport("HTTP 500 Internal Server Error"))))
        #expect(App.view(failed).trimmedLines[7] == " demo · page 1 failed")
    }
}
