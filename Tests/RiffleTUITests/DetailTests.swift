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

    /// A story as a feed sends it: an Ask HN with its own text in HTML, its author, score and comments.
    static func story(text: String = "<p>What do you read feeds with?</p><p>I use <i>newsboat</i>, see https://newsboat.org/a/very/long/path/that/does/not/fit</p>",
                      title: String = "Ask HN: your reader?") -> Item {
        var item = Item(id: "1", title: title, details: ["pg"], url: "https://www.example.com/ask?id=1",
                        createdAt: Fixture.now.addingTimeInterval(-7200),
                        fields: .object(JSONObject([("title", .string(title)), ("story_text", .string(text)),
                                                    ("_tags", .array([.string("story")]))])))
        item.author = "pg"
        item.score = 120
        item.comments = 45
        return item
    }

    @Test func enterShowsTheStoryAsPeopleReadIt() {
        // Given an Ask HN story selected
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story()]), size: Size(width: 40, height: 16))
        // When Enter is pressed
        state.press(.enter)
        // Then the title, the site, author, score, comments and age, the text as text, and the link:
        // not the JSON's fields (_tags)
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[0...12]) == [
            " Ask HN: your reader?            q back",
            " Ask HN: your reader?",
            " example.com · by pg · 120 points · 45",
            " comments · 2h ago",
            "",
            " What do you read feeds with?",
            "",
            " I use newsboat, see",
            " https://newsboat.org/a/very/long/path…",
            "",
            " link: https://www.example.com/ask?id=1",
            "",
            "",
        ])
        #expect(!lines.contains { $0.contains("_tags") })
        #expect(lines[15] == " story · top · v fields")
        // And the age is told by the clock
        state.send(.tick(Fixture.now.addingTimeInterval(86_400)))
        #expect(App.view(state).trimmedLines[3] == " comments · 1d ago")
    }

    @Test func listRowsShowTheSiteAndTheCommentCount() {
        // Given a story with an author, a score and comments (RiffleKit keeps two facts beside an age)
        var story = Self.story()
        story.details = ["pg", "120 points"]
        let state = Fixture.state(showing: Fixture.page(1, items: [story, Fixture.item("no link", details: ["ann"])]),
                                  size: Size(width: 90, height: 8))
        // Then its row has the link's site after the title and the comment count in the details
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " Ask HN: your reader? (example.com)  pg · 120 points · 45 comments · 2h ago")
        #expect(lines[2] == " no link  ann")
    }

    @Test func theFactsLineCarriesTheAge() {
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story()]), size: Size(width: 80, height: 10))
        state.press(.enter)
        #expect(App.view(state).trimmedLines[2] == " example.com · by pg · 120 points · 45 comments · 2h ago")
    }

    @Test func vShowsEveryFieldWrappedAndIndented() throws {
        // Given the rich item shown
        var state = try Self.state()
        state.press(.enter)
        // When v is pressed
        state.press("v")
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
        #expect(lines[19] == " fields · top · v raw JSON")
    }

    @Test func vAgainTogglesPrettyPrintedJSONThenTheStory() throws {
        var state = try Self.state()
        state.press(.enter)
        state.press("v")
        state.press("v")
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...5]) == [" {", "   \"id\": 42,", "   \"title\": \"Show HN: a terminal", "     browser\",", "   \"tags\": ["])
        #expect(lines[19] == " raw JSON · top · v story")
        // And the escape stays escaped in JSON text
        state.press("G")
        #expect(App.view(state).trimmedLines[17] == "   \"evil\": \"\\u001b[2J\"")
        #expect(App.view(state).trimmedLines[19] == " raw JSON · 100% · v story")
        state.press("v")
        #expect(App.view(state).trimmedLines[1] == " Show HN: a terminal browser")
    }

    @Test func scrollsWithJKAndPagesAndStopsAtTheEnds() throws {
        // Given the fields on a short screen: 6 rows for 14 lines
        var state = try Self.state(height: 8)
        state.press(.enter)
        state.press("v")
        func line() -> [String] { [App.view(state).trimmedLines[1]] }
        // When moving, the scroll stops at the top and at 14 - 6
        state.press("k")
        #expect(line() == [" id: 42"])
        state.press("j"); state.press(.down)
        #expect(line() == [" tags:"])
        state.press(.pageDown)
        #expect(line() == [" text: Riffle pages through JSON feeds"])
        state.press(.pageUp); state.press(.control("u"))
        #expect(line() == [" id: 42"])
        state.press(.control("d"))
        #expect(line() == ["   [0]: swift"])
        state.send(.event(.mouseWheel(up: false)))
        #expect(line() == ["   name: Ann"])
        state.press("G")
        #expect(line() == [" text: Riffle pages through JSON feeds"])
        state.press("j")
        #expect(line() == [" text: Riffle pages through JSON feeds"], "no further than the last screen")
    }

    @Test func aTitleOfMegabytesLaysOutWhatShowsNotTheWholeTitle() {
        // Given an item whose title is 5 MB of words
        let huge = String(repeating: "word ", count: 1_000_000)
        let item = Item(id: "big", title: huge, details: [], url: nil, createdAt: nil,
                        fields: .object(JSONObject([("title", .string(huge)), ("text", .string(huge))])))
        var state = Fixture.state(showing: Fixture.page(1, items: [item]), size: Size(width: 80, height: 24))
        // When it is opened, scrolled a line, a page, to the end, and shown as fields and raw JSON
        state.press(.enter)
        var rows = state.detail!.laidOut.rowsMade
        // Then each block is laid out once, at most its cap, whatever the title's length
        #expect(rows <= DetailView.maxBlockLines + 100, "the title shows its first 20 lines, the text its first 1,000")
        #expect(App.view(state).trimmedLines[1].hasPrefix(" word word"))
        for key: Key in [.character("j"), .pageDown, .character("k")] {
            state.press(key)
            #expect(state.detail!.laidOut.rowsMade - rows <= 30, "a key lays out what comes into view, at most")
            rows = state.detail!.laidOut.rowsMade
        }
        state.press("G")
        #expect(state.detail!.laidOut.rowsMade - rows <= 2 * (DetailView.maxBlockLines + 1) + 50)
        #expect(App.view(state).trimmedLines.contains { $0.contains("cut here: the text is 200 KB") })
        rows = state.detail!.laidOut.rowsMade
        _ = App.view(state)
        state.send(.tick(Fixture.now))
        #expect(state.detail!.laidOut.rowsMade == rows, "frames and ticks lay out nothing")
        state.press("v")
        #expect(state.detail!.laidOut.rowsMade - rows <= 2 * (DetailView.maxBlockLines + 1) + 50)
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
