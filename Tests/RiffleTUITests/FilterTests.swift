import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("filter")
struct FilterTests {
    static func state() -> AppState {
        Fixture.state(showing: Fixture.page(1, items: [
            Fixture.item("Swift 6 released", details: ["apple"]),
            Fixture.item("東京の天気", details: ["nhk"]),
            Fixture.item("Rust and SWIFT compared"),
            Fixture.item("A post by Tim", details: ["swiftie"]),
            Fixture.item("京都 guide"),
        ]))
    }

    static func typing(_ text: String, into state: inout AppState) {
        state.press("/")
        for character in text { state.press(.character(character)) }
    }

    @Test func typingFiltersCaseInsensitivelyOverTitleAndDetails() {
        // Given five items
        var state = Self.state()
        // When "/swift" is typed
        Self.typing("swift", into: &state)
        // Then the three that mention it, in title or details, in any case, remain
        #expect(state.list.rows.map { state.list.items[$0].title } == ["Swift 6 released", "Rust and SWIFT compared", "A post by Tim"])
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...3]) == [" Swift 6 released  apple", " Rust and SWIFT compared", " A post by Tim  swiftie"])
        #expect(lines[7] == " /swift                       3 matches")
        #expect(App.view(state)[7, 7].style.reverse, "a cursor after the query")
    }

    @Test func lettersGoToTheQueryNotToCommands() {
        var state = Self.state()
        Self.typing("qjn", into: &state)
        #expect(state.list.filter?.query == "qjn" && !state.shouldQuit && state.feed.paging.requests.isEmpty)
    }

    @Test func cjkQueriesWork() {
        var state = Self.state()
        Self.typing("京", into: &state)
        #expect(state.list.rows.map { state.list.items[$0].title } == ["東京の天気", "京都 guide"])
        #expect(App.view(state).trimmedLines[7] == " /京                          2 matches")
    }

    @Test func backspaceEditsTheQuery() {
        var state = Self.state()
        Self.typing("京x", into: &state)
        #expect(state.list.rows.isEmpty)
        #expect(App.view(state).trimmedLines[3] == "               no matches")
        state.press(.backspace)
        #expect(state.list.filter?.query == "京" && state.list.rows.count == 2)
        state.press(.backspace); state.press(.backspace)
        #expect(state.list.filter?.query == "" && state.list.rows.count == 5)
    }

    @Test func enterKeepsTheFilterAndReturnsToMoving() {
        // Given "/swift" typed
        var state = Self.state()
        Self.typing("swift", into: &state)
        // When Enter is pressed
        state.press(.enter)
        // Then j moves among the matches and the status bar names the filter
        state.press("j")
        #expect(state.list.selectedItem?.title == "Rust and SWIFT compared")
        #expect(App.view(state).trimmedLines[7] == " /swift · page 1 · network · fetched 3…")
        // And Enter now opens the selected match
        state.press(.enter)
        #expect(state.detail?.item.title == "Rust and SWIFT compared")
    }

    @Test func escapeClearsTheFilterAndKeepsTheSelectedItem() {
        var state = Self.state()
        Self.typing("swift", into: &state)
        state.press(.down); state.press(.down)
        state.press(.escape)
        #expect(state.list.filter == nil && state.list.rows.count == 5)
        #expect(state.list.selectedItem?.title == "A post by Tim")
    }

    @Test func escapeInTheListClearsAKeptFilter() {
        var state = Self.state()
        Self.typing("京", into: &state)
        state.press(.enter)
        state.press(.escape)
        #expect(state.list.filter == nil && !state.shouldQuit)
    }

    @Test func slashAgainEditsTheKeptQuery() {
        var state = Self.state()
        Self.typing("sw", into: &state)
        state.press(.enter)
        Self.typing("ift 6", into: &state)
        #expect(state.list.filter?.query == "swift 6" && state.list.rows.count == 1)
    }

    @Test func enterOnAnEmptyQueryDropsTheFilter() {
        var state = Self.state()
        state.press("/")
        state.press(.enter)
        #expect(state.list.filter == nil)
    }

    @Test func noPrefetchWhileFiltering() {
        // Given 10 items and a filter matching two of them
        var state = Fixture.state()
        Self.typing("item 1", into: &state)
        state.press(.enter)
        #expect(state.list.rows.count == 2)
        // When the last match is selected, nothing is loaded in the background
        #expect(state.press("j") == [])
        // But moving past it still asks for more explicitly
        #expect(state.press("j") == [.load(page: 2, policy: .returnCacheElseLoad)])
    }
}
