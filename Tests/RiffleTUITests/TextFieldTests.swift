import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("a line being typed: readline's keys in the prompts and the filter")
struct TextFieldTests {
    /// `keys` typed into a line holding `text` (the cursor at its end): the line, `|` at the cursor.
    static func typed(_ keys: [Key], into text: String = "") -> String {
        var field = TextField(text)
        for key in keys { _ = field.edit(key) }
        return field.beforeCursor + "|" + field.afterCursor
    }

    static func characters(_ text: String) -> [Key] { text.map { .character($0) } }

    @Test func readlineKeysMoveAndDelete() {
        #expect(Self.typed([.control("u")], into: "rust") == "|")
        #expect(Self.typed([.left, .left, .control("u")], into: "rust") == "|st")
        #expect(Self.typed([.left, .left, .control("k")], into: "rust") == "ru|")
        #expect(Self.typed([.control("w")], into: "swift concurrency  ") == "swift |")
        #expect(Self.typed([.control("w"), .control("w")], into: "swift concurrency") == "|")
        #expect(Self.typed([.control("a")] + Self.characters("my "), into: "rust") == "my |rust")
        #expect(Self.typed([.home, .control("e")], into: "rust") == "rust|")
        #expect(Self.typed([.control("b"), .control("b"), .control("f")], into: "rust") == "rus|t")
        #expect(Self.typed([.left, .backspace], into: "rust") == "ru|t")
        #expect(Self.typed([.left, .left, .delete], into: "rust") == "ru|t")
        // Delete at the end takes the character before, as before the cursor could move
        #expect(Self.typed([.delete], into: "rust") == "rus|")
        // Past an end nothing happens
        #expect(Self.typed([.home, .backspace, .left], into: "rust") == "|rust")
        #expect(Self.typed([.right, .delete, .delete, .delete, .delete, .delete], into: "") == "|")
    }

    @Test func movesAndDeletionsTakeWholeCharacters() {
        let line = "日本🇯🇵👨‍👩‍👧e\u{301}"
        #expect(Self.typed([.backspace], into: line) == "日本🇯🇵👨‍👩‍👧|")
        #expect(Self.typed([.left, .left, .backspace], into: line) == "日本|👨‍👩‍👧e\u{301}")
        #expect(Self.typed([.control("a"), .right, .delete], into: line) == "日|🇯🇵👨‍👩‍👧e\u{301}")
        #expect(Self.typed([.left, .control("w")], into: "東京 " + line) == "東京 |e\u{301}")
        // A flag typed as its two halves is one character, and so is an accent typed after its letter
        #expect(Self.typed([.character("\u{1F1EF}"), .character("\u{1F1F5}"), .backspace]) == "|")
        #expect(Self.typed([.character("e"), .character("\u{301}"), .left]) == "|e\u{301}")
    }

    @Test func keysThatEditNoLineAreLeftToTheCaller() {
        var field = TextField("x")
        for key: Key in [.enter, .escape, .up, .down, .pageUp, .tab, .control("d"), .control("n"), .function(1)] {
            let taken = field.edit(key)
            #expect(!taken, "\(key)")
        }
        #expect(field == TextField("x"))
    }

    @Test func ctrlUClearsTheRenamePromptAndTheCursorMovesInIt() {
        // Given the feed list's rename prompt, holding the feed's name
        var state = FeedListEditTests.state()
        state.press("e")
        #expect(App.view(state).trimmedLines[7] == " rename rust to: rust")
        // When Ctrl-U is pressed, the name goes and the prompt stays
        #expect(state.press(.control("u")) == [])
        #expect(App.view(state).trimmedLines[7] == " rename rust to:")
        #expect(state.screens.overlay != nil)
        // When a name is typed, Ctrl-A goes to its start and more is typed there
        for character in "ferris" { state.press(.character(character)) }
        state.press(.control("a"))
        for character in "my-" { state.press(.character(character)) }
        let view = App.view(state)
        #expect(view.trimmedLines[7] == " rename rust to: my-ferris")
        // (the cursor is on the f)
        #expect(view[20, 7].symbol == "f" && view[20, 7].style.reverse && !view[19, 7].style.reverse)
        #expect(state.press(.enter) == [.renameFeed(FeedListEditTests.mine, to: "my-ferris")])
    }

    @Test func ctrlWTakesTheLastWordOfASearchAndCtrlUTheFilter() {
        // The search prompt
        var state = FilterTests.state()
        state.press("S")
        for character in "swift concurrency" { state.press(.character(character)) }
        state.press(.control("w"))
        #expect(App.view(state).trimmedLines[7] == " search: swift")
        // The filter: the list follows the query as it is edited
        state.press(.escape)
        FilterTests.typing("x 京", into: &state)
        #expect(state.list.rows.isEmpty)
        state.press(.control("a"))
        state.press(.delete)
        state.press(.delete)
        #expect(state.list.filter?.query == "京")
        #expect(state.list.rows.map { state.list.items[$0].title } == ["東京の天気", "京都 guide"])
        state.press(.control("e"))
        state.press(.control("u"))
        #expect(state.list.filter?.query == "" && state.list.rows.count == 5)
    }

    @Test func aLongLineShowsTheCursorWithWideCharactersWhole() {
        // Given a prompt bar 20 columns wide and a line longer than it
        var prompt = Prompt(.search, text: "東京 大阪 京都 名古屋 札幌")
        var buffer = Buffer(size: Size(width: 20, height: 1))
        PromptBar(prompt: prompt).render(into: &buffer, area: buffer.area)
        // Then its end shows, the cursor after it
        #expect(buffer.description == " search: 古屋 札幌")
        #expect(buffer[18, 0].style.reverse)
        // When the cursor goes to the start, the start shows (cut with "…"), the cursor on its first character
        _ = prompt.field.edit(.control("a"))
        buffer = Buffer(size: Size(width: 20, height: 1))
        PromptBar(prompt: prompt).render(into: &buffer, area: buffer.area)
        #expect(buffer.description == " search: 東京 大阪…")
        #expect(buffer[9, 0].symbol == "東" && buffer[9, 0].style.reverse && buffer[10, 0].isContinuation)
    }
}
