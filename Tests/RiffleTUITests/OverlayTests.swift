import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("help and log overlays")
struct OverlayTests {
    @Test func questionMarkShowsEveryKeyInACentredBox() {
        // Given the list on a 60x44 screen
        var state = Fixture.state(size: Size(width: 60, height: 44))
        // When ? is pressed
        state.press("?")
        // Then a box lists the keys, a command and its opposite on one line
        let lines = App.view(state).trimmedLines
        #expect(lines.contains(" ┌─ keys ────────────────────────────────────────────────┐"))
        #expect(lines.contains(" │ j ↓ k ↑          move down / up                       │"))
        // What u and r do on the screens where they mean something else (comments, the feed list).
        #expect(lines.contains(" │ u                next unseen item; comments: next new │"))
        #expect(lines.contains(" │ r R              reload page / all; F: the feed / all │"))
        #expect(lines.contains(" │ f                save for later / unsave (F: saved)   │"))
        #expect(lines.contains(" │ /                filter (Enter keep, Esc clear)       │"))
        #expect(lines.contains(" │ any key closes                                        │"))
        #expect(lines.contains(" └───────────────────────────────────────────────────────┘"))
        for key in ["n p", "Enter", "] [", "U", "v", "Space PgDn PgUp", "o", "c C", "y Y", "m M", "u", "f", "S", "s", "r R", "w", "e", "d", "F", "L", "?", "Esc", "q", "^d ^u"] {
            #expect(lines.contains { $0.hasPrefix(" │ \(key) ") }, "help lists \(key)")
        }
    }

    @Test func theHelpShowsTheKeysInForce() throws {
        // Given x bound to opening links and o unbound
        var keymap = KeyMap.standard
        try keymap.bind("x", to: "open-link")
        try keymap.bind("o", to: "none")
        var state = Fixture.state(size: Size(width: 60, height: 30))
        state.settings.keymap = keymap
        state.press("?")
        // Then the help lists x for it, and o nowhere
        let lines = App.view(state).trimmedLines
        #expect(lines.contains(" │ x                open the link (comment: its links)   │"))
        #expect(!lines.contains { $0.hasPrefix(" │ o ") })
        // And the keys act as listed
        state.press("q")
        state.press(.character("o"))
        #expect(state.toasts.isEmpty)
        state.press("x")
        #expect(state.toasts.last?.message == "no link", "x tried to open the (missing) link")
    }

    @Test func unknownKeysAndCommandsAreNamedInTheError() {
        var keymap = KeyMap.standard
        #expect(throws: KeyMap.Problem.unknownKey("ctrl-1")) { try keymap.bind("ctrl-1", to: "down") }
        #expect(throws: KeyMap.Problem.unknownCommand("fly")) { try keymap.bind("j", to: "fly") }
        #expect(KeyMap.key(named: "pgdn") == .pageDown && KeyMap.key(named: "ctrl-D") == .control("d") && KeyMap.key(named: "F5") == .function(5))
        #expect(KeyMap.key(named: "space") == .character(" ") && KeyMap.key(named: "J") == .character("J"))
    }

    @Test(arguments: [Key.character("q"), .escape, .character("j"), .enter])
    func whenItFitsAnyKeyClosesTheHelpAndDoesNothingElse(key: Key) {
        var state = Fixture.state(size: Size(width: 60, height: 40))
        state.press("?")
        let effects = state.press(key)
        #expect(state.screens.overlay == nil)
        #expect(effects == [] && state.list.selection == 0 && !state.shouldQuit && state.screens.shown == .list)
    }

    @Test func onASmallScreenTheHelpScrollsWithJAndK() {
        // Given the help on a 60x12 screen: 8 of its 35 lines fit
        var state = Fixture.state(size: Size(width: 60, height: 12))
        state.press("?")
        var lines = App.view(state).trimmedLines
        #expect(lines[1] == " │ j ↓ k ↑          move down / up                       │")
        #expect(lines[10] == " │ j k scroll · 1-8 of 35 · other keys close             │")
        // When j is pressed three times and ↑ once
        state.press("j"); state.press("j"); state.press(.down); state.press(.up)
        // Then the box shows lines 3-10, and the list under it has not moved
        lines = App.view(state).trimmedLines
        #expect(lines[1] == " │ Space PgDn PgUp  a screen down / up                   │")
        #expect(lines[10] == " │ j k scroll · 3-10 of 35 · other keys close            │")
        #expect(state.list.selection == 0)
        // And it stops at the last line
        for _ in 0..<35 { state.press("j") }
        lines = App.view(state).trimmedLines
        #expect(lines[8] == " │ Del              typing: delete under the cursor      │")
        #expect(state.screens.overlay == .help(scroll: 27))
        // When another key is pressed, the help closes and the key does nothing else
        #expect(state.press("q") == [] && state.screens.overlay == nil && !state.shouldQuit)
    }

    /// Every key a browser might get, but for typing into the filter.
    static let everyKey: [Key] = (0x20...0x7E).map { Key.character(Character(Unicode.Scalar($0)!)) }
        + "abcdefghijklmnopqrstuvwxyz".map { Key.control($0) }
        + [.up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .enter, .escape, .backspace, .tab, .delete]
        + (1...12).map { Key.function($0) }

    /// States a key may act in: the list on page 2 of two, with a kept filter, an item taller
    /// than the screen, and the feed list with a feed of the user's.
    static func statesForKeys() throws -> [AppState] {
        let fields = try JSONParser.parse(Data(("{" + (0..<40).map { #""k\#($0)": "v""# }.joined(separator: ",") + "}").utf8))
        let first = Fixture.page(1, items: [Fixture.item("tall", fields: fields)] + Fixture.items(9))
        var list = Fixture.state(pages: [first, Fixture.page(2)], size: Size(width: 50, height: 30))
        list.press("j")
        var filtered = list
        filtered.press("/"); filtered.press("1"); filtered.press(.enter)
        var detail = list
        detail.press("g"); detail.press(.enter)
        // And a thread of two top-level comments, the first with a reply
        var comments = list
        comments.feed.commentsAvailable = true
        comments.press("c")
        comments.send(.commentsLoaded(item: comments.list.selectedKey ?? "", CommentThread(comments: [
            .init(depth: 0, author: "ann", text: "one", createdAt: nil), .init(depth: 1, author: "bob", text: "two", createdAt: nil),
            .init(depth: 0, author: "cy", text: "three", createdAt: nil),
        ])))
        var lastComment = comments
        lastComment.press("G")
        var feeds = list
        feeds.press("F")
        feeds.send(.feedsListed([FeedEntry(name: "mine", description: "", origin: .feedsFile)]))
        return [list, filtered, detail, comments, lastComment, feeds]
    }

    @Test func theHelpListsEveryKeyTheBrowserAnswers() throws {
        let listed = Set(HelpOverlay().bindings.flatMap(\.keys))
        let states = try Self.statesForKeys()
        for key in Self.everyKey where !listed.contains(key) {
            for var state in states {
                let before = state
                let effects = state.press(key)
                #expect(state == before && effects.isEmpty, "\(key) does something but the help does not list it")
            }
        }
    }

    @Test func everyKeyTheHelpListsDoesSomething() throws {
        let states = try Self.statesForKeys()
        for key in HelpOverlay().bindings.flatMap(\.keys) {
            let acts = states.contains { state in
                var after = state
                let effects = after.press(key)
                return after != state || !effects.isEmpty
            }
            #expect(acts, "the help lists \(key), which does nothing")
        }
    }

    @Test func mouseEventsDoNotReachTheListUnderABox() {
        var state = Fixture.state()
        state.press("?")
        state.send(.event(.mouseWheel(up: false)))
        state.send(.event(.mouseClick(x: 2, y: 4)))
        #expect(state.list.selection == 0 && state.screens.overlay == .help(scroll: 0))
    }

    @Test func helpOpensFromTheDetailToo() {
        var state = Fixture.state()
        state.press(.enter)
        state.press("?")
        #expect(state.screens.overlay == .help(scroll: 0))
        state.press("x")
        #expect(state.screens.overlay == nil && state.detail != nil)
    }

    @Test func capitalLShowsEveryPastMessageNewestLast() {
        // Given two messages, long faded
        var state = Fixture.state()
        state.press("n")
        state.send(.pageFailed(page: 2, error: .request(.transport("timed out"))))
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
        #expect(state.screens.overlay == .log && state.list.selection == 0)
        state.press(.escape)
        #expect(state.screens.overlay == nil && !state.shouldQuit)
    }

    @Test func theLogKeepsTheNewestThousandMessagesOfALongDay() {
        // Given a browser left open all day, a failing page raising a message every so often
        var state = Fixture.state()
        for i in 1...(Toast.logLimit + 250) {
            state.press("n")
            state.send(.pageFailed(page: 2, error: .request(.transport("timed out \(i)"))))
            state.send(.tick(Fixture.now.addingTimeInterval(Double(i) * 10)))
        }
        // Then the log holds the newest thousand, the last one last
        #expect(state.toasts.count == Toast.logLimit)
        #expect(state.toasts.first?.message == "page 2: timed out 251")
        #expect(state.toasts.last?.message == "page 2: timed out \(Toast.logLimit + 250)")
        state.press("L")
        #expect(App.view(state).trimmedLines[1].contains("messages (\(Toast.logLimit))"))
    }

    @Test func emptyLogSaysSo() {
        var state = Fixture.state()
        state.press("L")
        #expect(App.view(state).trimmedLines[3].contains("no messages"))
        state.press("q")
        #expect(state.screens.overlay == nil && !state.shouldQuit)
    }
}

@Suite("help: the keys that edit a line being typed")
struct HelpTypingKeysTests {
    @Test func onAnEightyByTwentyFourTerminalTheHelpEndsWithTheTypingKeys() {
        // Given the help on an 80x24 terminal
        var state = Fixture.state(size: Size(width: 80, height: 24))
        state.press("?")
        var lines = App.view(state).trimmedLines
        // Then its box fits, and it scrolls
        #expect(lines.count == 24)
        #expect(lines.first?.contains("┌─ keys ─") == true && lines.last?.contains("┘") == true)
        #expect(lines.contains { $0.contains("j k scroll · 1-20 of 35 · other keys close") }, "\(lines.joined(separator: "\n"))")
        // When scrolled to the end
        for _ in 0..<40 { state.press("j") }
        lines = App.view(state).trimmedLines
        // Then the keys that edit the filter, search and the prompts are listed, as the rest are
        for line in [
            "│ wheel, click     move 3 / select                      │",
            "│ ← → ^b ^f        typing: a character back / on        │",
            "│ ^a ^e            typing: to the start / end           │",
            "│ ^u ^k            typing: delete before / after cursor │",
            "│ ^w               typing: delete the word before       │",
            "│ Del              typing: delete under the cursor      │",
        ] {
            #expect(lines.contains { $0.hasSuffix(line) }, "\(line)")
        }
    }

    @Test func everyKeyThatEditsALineIsListedAndEveryOneListedEdits() {
        let listed = TextField.help.flatMap(\.keys)
        // Every key that a line takes is listed, but a character, Backspace, and Home and End (which
        // move the list while the filter is open: the help lists them so)
        for key in OverlayTests.everyKey where ![.backspace, .control("h"), .home, .end].contains(key) {
            if case .character = key { continue }
            var field = TextField("ab cd")
            if field.edit(key) {
                #expect(listed.contains(key), "\(key) edits a line but the help does not list it")
            }
        }
        // And each listed key changes a line with the cursor in its middle
        for key in listed {
            var field = TextField("ab cd")
            _ = field.edit(.left)
            _ = field.edit(.left)
            let before = field
            #expect(field.edit(key) && field != before, "the help lists \(key), which edits nothing")
        }
    }
}
