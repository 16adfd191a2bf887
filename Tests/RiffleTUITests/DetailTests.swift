import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("detail")
struct DetailTests {
    static let json = #"""
    {"id": 42, "title": "Show HN: a terminal browser", "tags": ["swift", "tui"],
     "author": {"name": "Ann", "karma": 12},
     "text": "Riffle pages through JSON feeds and keeps every page on disk.",
     "cjk": "漢字のテキストはとても長いので折り返す必要があります", "deleted": null, "evil": "\u001b[2J"}
    """#

    /// A list of three items, the second one rich, selected, on a 40 x `height` screen.
    static func state(height: Int = 20) throws -> AppState {
        let fields = try JSONParser.parse(Data(json.utf8))
        var state = Fixture.state(showing: Fixture.page(1, items: [
            Fixture.item("first"),
            Fixture.item("Show HN: a terminal browser", url: "https://example.com/x", fields: fields),
            Fixture.item("third"),
        ]), size: Size(width: 40, height: height))
        state.press("j")
        return state
    }

    @Test func enterShowsEveryFieldWrappedAndIndented() throws {
        // Given the rich item selected
        var state = try Self.state()
        // When Enter is pressed
        state.press(.enter)
        // Then its fields show as key: value, nested ones indented, long text wrapped by display width
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[0...14]) == [
            " Show HN: a terminal browser     q back",
            " id: 42",
            " title: Show HN: a terminal browser",
            " tags:",
            "   [0]: swift",
            "   [1]: tui",
            " author:",
            "   name: Ann",
            "   karma: 12",
            " text: Riffle pages through JSON feeds",
            "   and keeps every page on disk.",
            " cjk: 漢字のテキストはとても長いので折",
            "   り返す必要があります",
            " deleted: null",
            " evil: ␛[2J",
        ])
        #expect(lines[19] == " fields · lines 1-14 of 14 · v raw JSON")
    }

    @Test func vTogglesPrettyPrintedJSON() throws {
        var state = try Self.state()
        state.press(.enter)
        state.press("v")
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...5]) == [" {", "   \"id\": 42,", "   \"title\": \"Show HN: a terminal", "     browser\",", "   \"tags\": ["])
        #expect(lines[19] == " raw JSON · lines 1-18 of 21 · v fields")
        // And the escape stays escaped in JSON text
        state.press("G")
        #expect(App.view(state).trimmedLines[17] == "   \"evil\": \"\\u001b[2J\"")
        state.press("v")
        #expect(App.view(state).trimmedLines[1] == " id: 42")
    }

    @Test func scrollsWithJKAndPagesAndStopsAtTheEnds() throws {
        // Given the detail on a short screen: 6 rows for 14 lines
        var state = try Self.state(height: 8)
        state.press(.enter)
        // When moving, the scroll stops at 0 and at 14 - 6
        state.press("k")
        #expect(state.detail?.scroll == 0)
        state.press("j"); state.press(.down)
        #expect(state.detail?.scroll == 2)
        state.press(.pageDown)
        #expect(state.detail?.scroll == 8)
        state.press(.pageUp); state.press(.control("u"))
        #expect(state.detail?.scroll == 0)
        state.press(.control("d"))
        #expect(state.detail?.scroll == 3)
        state.send(.event(.mouseWheel(up: false)))
        #expect(state.detail?.scroll == 6)
        #expect(App.view(state).trimmedLines[1] == "   name: Ann")
    }

    @Test(arguments: [Key.escape, .character("q")])
    func escapeAndQReturnToTheListAtTheSamePlace(key: Key) throws {
        var state = try Self.state(height: 8)
        let list = App.view(state)
        state.press(.enter)
        state.press("j")
        #expect(state.press(key) == [], "q in the detail does not quit")
        #expect(state.screens.shown == .list && !state.shouldQuit)
        // The same rows; the item opened is now seen (drawn dimmer)
        #expect(App.view(state).trimmedLines == list.trimmedLines)
        #expect(state.feed.reading.seen == [state.list.selectedItem!.readingKey])
    }

    @Test func enterOnAnEmptyListDoesNothing() {
        var state = Fixture.state(showing: Fixture.page(1, items: []))
        state.press(.enter)
        #expect(state.screens.shown == .list)
    }

    @Test func wrapBreaksAtSpacesAndInsideLongWordsByWidth() {
        #expect(TextWrap.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TextWrap.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrap.wrap("漢字漢字漢", width: 5) == ["漢字", "漢字", "漢"])
        #expect(TextWrap.wrap("a\nb", width: 5) == ["a", "b"])
        #expect(TextWrap.wrap("hang indent here", width: 6, continuationWidth: 4) == ["hang", "inde", "nt", "here"])
    }
}

@Suite("open link")
struct OpenLinkTests {
    @Test func oOpensTheSelectedItemsLink() throws {
        var state = try DetailTests.state()
        // Opening it is seeing it
        #expect(state.press("o") == [.open(URL(string: "https://example.com/x")!), .mark([state.list.selectedItem!], seen: true)])
        // And from the detail too
        state.press(.enter)
        #expect(state.press("o") == [.open(URL(string: "https://example.com/x")!)])
    }

    @Test func oWithoutALinkSaysSo() {
        var state = Fixture.state()
        #expect(state.press("o") == [])
        #expect(state.toasts.map(\.message) == ["no link"])
        #expect(App.view(state).trimmedLines[6] == " p1 item 6                      no link")
    }
}

extension AppState {
    /// The detail screen's state, when it is showing.
    var detail: ItemScreen? {
        if case .item(let item) = screens.shown { item } else { nil }
    }
}
