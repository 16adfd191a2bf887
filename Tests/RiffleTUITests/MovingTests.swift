import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("update: moving")
struct MovingTests {
    /// 30 items on a 40x8 screen: 6 list rows.
    static func longList() -> AppState {
        Fixture.state(showing: Fixture.page(1, items: Fixture.items(30)))
    }

    @Test(arguments: [Key.end, .character("G")])
    func endGoesToTheLastItem(key: Key) {
        var state = Self.longList()
        state.press(key)
        #expect(state.list.selection == 29 && state.list.scrollOffset == 25, "the spinner row of the prefetch shows too")
    }

    @Test(arguments: [Key.home, .character("g")])
    func homeGoesToTheFirstItem(key: Key) {
        var state = Self.longList()
        state.press("G")
        state.press(key)
        #expect(state.list.selection == 0 && state.list.scrollOffset == 0)
    }

    @Test func pageDownAndUpMoveAScreenful() {
        var state = Self.longList()
        state.press(.pageDown)
        #expect(state.list.selection == 6 && state.list.scrollOffset == 1)
        state.press(.pageDown); state.press(.pageDown); state.press(.pageDown); state.press(.pageDown)
        #expect(state.list.selection == 29)
        state.press(.pageUp)
        #expect(state.list.selection == 23)
    }

    @Test func controlDAndUMoveHalfAScreen() {
        var state = Self.longList()
        state.press(.control("d"))
        #expect(state.list.selection == 3)
        state.press(.control("d"))
        #expect(state.list.selection == 6)
        state.press(.control("u"))
        #expect(state.list.selection == 3)
    }

    @Test func mouseWheelMovesThree() {
        var state = Self.longList()
        state.send(.event(.mouseWheel(up: false)))
        #expect(state.list.selection == 3)
        state.send(.event(.mouseWheel(up: true)))
        state.send(.event(.mouseWheel(up: true)))
        #expect(state.list.selection == 0)
    }

    @Test func clickSelectsTheRowClicked() {
        // Given the list scrolled by 10
        var state = Self.longList()
        state.press("G")
        state.send(.event(.mouseWheel(up: true)))
        // When row 3 of the screen (the third list row) is clicked
        state.send(.event(.mouseClick(x: 5, y: 3)))
        // Then the item drawn there is selected
        #expect(state.list.selection == state.list.scrollOffset + 2)
        #expect(App.view(state).trimmedLines[3] == " p1 item \(state.list.selection + 1)")
    }

    @Test func clickOutsideTheListChangesNothing() {
        var state = Fixture.state(showing: Fixture.page(1, items: Fixture.items(3)))
        for y in [0, 5, 7] { state.send(.event(.mouseClick(x: 1, y: y))) }
        #expect(state.list.selection == 0)
    }
}
