import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("help and log overlays")
struct OverlayTests {
    @Test func questionMarkShowsEveryKeyInACentredBox() {
        // Given the list on a 50x20 screen
        var state = Fixture.state(size: Size(width: 50, height: 20))
        // When ? is pressed
        state.press("?")
        // Then a box lists the keys
        let lines = App.view(state).trimmedLines
        #expect(lines[0] == " ┌─ keys ───────────────────────────────────────┐")
        #expect(lines[1] == " │ j k ↑ ↓       move                           │")
        #expect(lines[10] == " │ /             filter (Enter keep, Esc clear) │")
        #expect(lines[17] == " │ any key closes                               │")
        #expect(lines[18] == " └──────────────────────────────────────────────┘")
        for key in ["n p", "Enter", "v", "o", "r", "R", "L", "?", "Esc q", "^u ^d", "PgUp PgDn"] {
            #expect(lines.contains { $0.hasPrefix(" │ \(key) ") }, "help lists \(key)")
        }
    }

    @Test(arguments: [Key.character("q"), .escape, .character("j"), .enter])
    func anyKeyClosesTheHelpAndDoesNothingElse(key: Key) {
        var state = Fixture.state()
        state.press("?")
        let effects = state.press(key)
        #expect(state.overlay == nil)
        #expect(effects == [] && state.selection == 0 && !state.shouldQuit && state.mode == .list)
    }

    @Test func mouseEventsDoNotReachTheListUnderABox() {
        var state = Fixture.state()
        state.press("?")
        state.send(.event(.mouseWheel(up: false)))
        state.send(.event(.mouseClick(x: 2, y: 4)))
        #expect(state.selection == 0 && state.overlay == .help)
    }

    @Test func helpOpensFromTheDetailToo() {
        var state = Fixture.state()
        state.press(.enter)
        state.press("?")
        #expect(state.overlay == .help)
        state.press("x")
        #expect(state.overlay == nil && state.detail != nil)
    }

    @Test func capitalLShowsEveryPastMessageNewestLast() {
        // Given two messages, long faded
        var state = Fixture.state()
        state.press("n")
        state.send(.pageFailed(page: 2, error: .transport("timed out")))
        state.press("o")
        state.send(.tick(Fixture.now))
        state.send(.tick(Fixture.now.addingTimeInterval(10)))
        #expect(state.visibleToasts.isEmpty)
        // When L is pressed
        state.press("L")
        // Then both are in the log box
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " p┌─ messages (2) ───────────────────┐")
        #expect(lines[2] == " p│ page 2: timed out                │")
        #expect(lines[3] == " p│ no link                          │")
        // And keys other than Esc/q/L do nothing; Esc closes
        state.press("j")
        #expect(state.overlay == .log && state.selection == 0)
        state.press(.escape)
        #expect(state.overlay == nil && !state.shouldQuit)
    }

    @Test func emptyLogSaysSo() {
        var state = Fixture.state()
        state.press("L")
        #expect(App.view(state).trimmedLines[3].contains("no messages"))
        state.press("q")
        #expect(state.overlay == nil && !state.shouldQuit)
    }
}
