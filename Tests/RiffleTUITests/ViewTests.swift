import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("view: the browser screen")
struct ViewTests {
    static let mixed = [
        Fixture.item("Hello world", details: ["pg", "120 points"], age: 3 * 3600),
        Fixture.item("Second story", details: ["ann"], age: 90),
        Fixture.item("Third", age: 2 * 86_400),
    ]

    @Test func listWithSelection() {
        // Given a page of three items with the second selected
        var state = Fixture.state(showing: Fixture.page(1, items: Self.mixed))
        state.press("j")
        // When drawn at 40x8
        let buffer = App.view(state)
        // Then the header, the rows with their dim details and ages, and the status bar show
        #expect(buffer.trimmedLines == [
            " demo feed                       ? help",
            " Hello world  pg · 120 points · 3h ago",
            " Second story  ann · 1m ago",
            " Third  2d ago",
            "",
            "",
            "",
            " page 1 · network · fetched 3m ago",
        ])
        // And the whole selected row, margins included, is highlighted
        #expect((0..<40).allSatisfy { buffer[$0, 2].style.role == .selection })
        #expect(buffer[1, 1].style.role == .normal)
        #expect(buffer[1, 0].style.role == .header)
        #expect(buffer[15, 1].style.role == .dim)  // "pg"
        #expect(buffer[0, 7].style.role == .status)
    }

    @Test func listScrolledShowsTheSelection() {
        var state = Fixture.state()
        for _ in 0..<8 { state.press("j") }
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " p1 item 4")
        #expect(lines[6] == " p1 item 9")
    }

    @Test func truncationKeepsWideCharactersWhole() {
        // Given titles that overflow 38 columns with double-width characters
        let state = Fixture.state(showing: Fixture.page(1, items: [
            Fixture.item("漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字"),
            Fixture.item("a漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字"),
            Fixture.item("emoji 👩‍👩‍👧 family ❤️ ok 🎉🎉🎉🎉🎉🎉🎉🎉🎉"),
        ]))
        // When drawn
        let buffer = App.view(state)
        // Then each is cut with "…" and no character is half drawn at the edge
        #expect(Array(buffer.trimmedLines[1...3]) == [
            " 漢字漢字漢字漢字漢字漢字漢字漢字漢字…",
            " a漢字漢字漢字漢字漢字漢字漢字漢字漢字…",
            " emoji 👩‍👩‍👧 family ❤️ ok 🎉🎉🎉🎉🎉🎉🎉…",
        ])
        for y in 1...3 {
            #expect(buffer.lines[y].reduce(0) { $0 + TextWidth.width(of: $1) } == 40)
            #expect(!buffer[39, y].isContinuation)
        }
    }

    @Test func spinnerShowsWhileLoading() {
        // Given a reload in flight, two ticks in
        var state = Fixture.state()
        state.press("r")
        state.send(.tick(Fixture.now))
        state.send(.tick(Fixture.now))
        state.size = Size(width: 60, height: 8)
        // When drawn, then the third frame sits at the right of the status bar
        let lines = App.view(state).trimmedLines
        #expect(lines[7] == " item 1/10 · page 1 · network · fetched 3m ago            ⠹")
        // And the next tick shows the next frame
        state.send(.tick(Fixture.now))
        #expect(App.view(state).trimmedLines[7].hasSuffix("⠸"))
    }

    @Test func spinnerFramesWrap() {
        #expect(Spinner(frame: 0).symbol == "⠋")
        #expect(Spinner(frame: 10).symbol == "⠋")
        #expect(Spinner(frame: 19).symbol == "⠏")
    }

    @Test func statusBarShowsActivityWhenThereIsRoom() {
        var state = Fixture.state(showing: Fixture.page(1, source: .cache, fetchedAgo: 3 * 86_400))
        state.size = Size(width: 80, height: 8)
        state.press("n")
        #expect(App.view(state).trimmedLines[7] ==
            " demo feed · item 1/10 · page 1 · stale · fetched 3d ago       loading page 2 ⠋")
    }

    @Test func toastCoversTheBottomOfTheList() {
        // Given a failed load
        var state = Fixture.state()
        state.press("n")
        state.send(.pageFailed(page: 2, error: .request(.transport("HTTP 500 Internal Server Error"))))
        // When drawn
        let buffer = App.view(state)
        // Then the toast is the row above the status bar
        #expect(buffer.trimmedLines[6].hasSuffix(" page 2: HTTP 500 Internal Server Error"))
        #expect(buffer[39, 6].style.role == .toast)
        #expect(buffer.trimmedLines[5] == " p1 item 5")
        // And after three seconds it is gone
        state.send(.tick(Fixture.now))
        state.send(.tick(Fixture.now.addingTimeInterval(3)))
        #expect(App.view(state).trimmedLines[6] == " p1 item 6")
    }

    @Test func threeToastsNewestAtTheBottom() {
        var state = Fixture.state()
        for message in ["one", "two", "three", "four"] {
            state.press("n")
            state.send(.pageFailed(page: 2, error: .request(.transport(message))))
        }
        // (in the bottom right corner, as wide as the longest, the list's rows readable beside them)
        #expect(Array(App.view(state).trimmedLines[4...6]) == [
            " p1 item 4                page 2: two", " p1 item 5                page 2: three", " p1 item 6                page 2: four",
        ])
    }

    @Test func escapeSequencesInTitlesAreDrawnVisibly() {
        // Given a hostile title and details
        let state = Fixture.state(showing: Fixture.page(1, items: [
            Fixture.item("\u{1B}[2J evil", details: ["\u{9B}31m", "bell\u{07}"]),
        ]))
        // When drawn
        let buffer = App.view(state)
        // Then the escape shows as ␛ and no cell holds a control character
        #expect(buffer.trimmedLines[1] == " ␛[2J evil  �31m · bell␇")
        let controls = buffer.cells.flatMap(\.symbol.unicodeScalars).filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty)
    }

    @Test func emptyPageShowsNoItemsCentred() {
        let state = Fixture.state(showing: Fixture.page(1, items: []))
        #expect(App.view(state).trimmedLines[3] == "                no items")
    }

    @Test func firstLoadShowsLoading() {
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        let lines = App.view(state).trimmedLines
        #expect(lines[3] == "                loading…")
        // (nothing listed: no counts of nothing, the load says what is going on)
        #expect(lines[7] == " demo                  loading page 1 ⠋")
    }

    @Test func tooSmallBelowTwentyByFive() {
        // Given a terminal one column or one row too small
        var state = Fixture.state()
        for size in [Size(width: 19, height: 8), Size(width: 40, height: 4)] {
            state.send(.event(.resize(size)))
            // Then only the notice is drawn
            let text = App.view(state).description.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(text.filter { !$0.isEmpty } == ["terminal too small"])
        }
        // And at exactly 20x5 the browser is back
        state.send(.event(.resize(Size(width: 20, height: 5))))
        #expect(App.view(state).trimmedLines == [" demo feed   ? help", " p1 item 1", " p1 item 2", " p1 item 3", " page 1 · network …"])
    }

    @Test func tinyScreensDoNotCrashOnAnItemOrItsFields() {
        for opener in ["", "v"] {
            // Given a story open (its `link:` line is a label and a value), or its fields
            var state = Fixture.state(showing: Fixture.page(1, items: [DetailTests.story()]), size: Size(width: 40, height: 16))
            state.press(.enter)
            for key in opener { state.press(key) }
            // When the terminal shrinks to a few columns (a label wider than the screen once trapped:
            // a prefix of negative length)
            for (w, h) in [(4, 5), (1, 1), (3, 5), (5, 2), (6, 8), (0, 0)] {
                state.send(.event(.resize(Size(width: w, height: h))))
                #expect(App.view(state).size == Size(width: w, height: h))
                state.press(.down)
            }
            // Then at a usable width again the item is whole
            state.send(.event(.resize(Size(width: 40, height: 16))))
            #expect(App.view(state).description.contains(opener.isEmpty ? "link: https://www.example.com" : "story_text"), "\(App.view(state))")
        }
    }

    @Test func tinyScreensDoNotCrash() {
        var state = Fixture.state()
        for (w, h) in [(0, 0), (1, 1), (3, 2), (40, 1), (2, 8)] {
            state.send(.event(.resize(Size(width: w, height: h))))
            #expect(App.view(state).size == Size(width: w, height: h))
        }
    }
}

@Suite("InMemoryTerminal")
struct InMemoryTerminalTests {
    @Test func storesTheLastFrameAndPopsEvents() {
        // Given a terminal with two queued events
        let terminal = InMemoryTerminal(size: Fixture.size, events: [.key(.down), .key(.character("q"))])
        var state = Fixture.state()
        // When the events are fed through update and each state drawn
        while let event = terminal.nextEvent(timeoutMilliseconds: 0) {
            _ = App.update(&state, .event(event))
            terminal.draw(App.view(state))
        }
        // Then the last frame is the state after both, and the queue is empty
        #expect(terminal.drawCount == 2)
        #expect(terminal.lastFrame == App.view(state))
        #expect(state.shouldQuit)
        #expect(terminal.nextEvent(timeoutMilliseconds: 0) == nil)
        terminal.send(.resize(Size(width: 20, height: 5)))
        #expect(terminal.size == Size(width: 20, height: 5))
    }
}
