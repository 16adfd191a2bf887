import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

/// The field picker (`e`): the item's fields, each part's path and why (the words `riffle inspect`
/// prints), and a pick that rereads the list at once.
@Suite("field picker")
struct FieldPickerTests {
    /// A page whose headline is a level down and whose `name` is a slug.
    static let body = Data("""
    [{"id": 1, "name": "cats-doors", "headline": {"main": "Cats learn to open doors"}, "web": "https://example.com/a/1", "by": "ann"},
     {"id": 2, "name": "dogs-boats", "headline": {"main": "Dogs sail the harbour at dawn"}, "web": "https://example.com/a/2", "by": "bob"},
     {"id": 3, "name": "owls-night", "headline": {"main": "Owls keep the night shift"}, "web": "https://example.com/a/3", "by": "cy"}]
    """.utf8)

    static func page(_ fields: FieldMapping = FieldMapping()) throws -> Page {
        Page(number: 1, items: try ItemExtractor.items(in: body, fields: fields), data: body, source: .network,
             fetchedAt: Fixture.now, status: 200)
    }

    static func plan(_ fields: FieldMapping = FieldMapping()) throws -> FieldPlan {
        try ItemExtractor.plan(in: ItemExtractor.document(body, stored: false), fields: fields)
    }

    /// The list of the page on a wide screen, the second item selected.
    static func state() throws -> AppState {
        var state = Fixture.state(showing: try page(), size: Size(width: 150, height: 30))
        state.press("j")
        return state
    }

    @Test func eOpensThePickerOnTheSelectedItemAndAsksForItsPagesPlan() throws {
        var state = try Self.state()
        let effects = state.press("e")
        #expect(effects == [.planFields(page: 1)])
        let screen = try #require(state.screens.shown(as: FieldsScreen.self))
        #expect(screen.item.title == "Dogs sail the harbour at dawn" && screen.plan == nil)
        #expect(App.view(state).trimmedLines[1].contains("reading the page…"))
    }

    @Test func eOnAnEmptyListSaysThereIsNoItem() {
        var state = Fixture.state(showing: Fixture.page(1, items: []))
        #expect(state.press("e") == [] && state.screens.shown == .list)
        #expect(state.toasts.last?.message == "no item to pick fields from")
    }

    @Test func thePickerShowsEachPartsPathInInspectsWordsAndTheItemsValues() throws {
        var state = try Self.state()
        state.press("e")
        let plan = try Self.plan()
        state.send(.fieldsPlanned(page: 1, plan, subtitle: []))
        let lines = App.view(state).trimmedLines
        // The same words riffle inspect prints, part by part, runners-up under them.
        let title = plan.explanation(of: .title)
        #expect(title[0].hasPrefix("`headline.main` ("))
        #expect(lines.contains(" title     " + title[0]))
        for runnerUp in title.dropFirst() { #expect(lines.contains("           " + runnerUp)) }
        #expect(lines.contains(" link      " + plan.explanation(of: .link)[0]))
        #expect(lines.contains(" subtitle  automatic: the author and the counts"))
        #expect(lines.contains(" time      none: no path looks like one"))
        #expect(lines.contains(" author    " + plan.explanation(of: .author)[0]))
        // And the item's own values, path by path.
        #expect(lines.contains(" this item's fields"))
        #expect(lines.contains("   headline.main  \"Dogs sail the harbour at dawn\""))
        #expect(lines.contains("   name           \"dogs-boats\""))
        #expect(lines[0].hasPrefix(" fields · Dogs sail the harbour at dawn"))
    }

    @Test func choosingAPathPinsItAndGoesBackToTheList() throws {
        var state = try Self.state()
        state.press("e")
        state.send(.fieldsPlanned(page: 1, try Self.plan(), subtitle: []))
        // Enter on title: "automatic" is selected, the plan's candidates come next, then the values.
        state.press(.enter)
        var screen = try #require(state.screens.shown(as: FieldsScreen.self))
        #expect(screen.choosing == .title && screen.selection == 0)
        let paths = screen.paths(for: .title)
        #expect(paths.first == "headline.main" && paths.contains("name") && paths.contains("id"))
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " title: which path? Enter chooses, Esc goes back")
        #expect(lines[2].hasPrefix(" ● automatic      `headline.main` ("))
        #expect(lines[3].hasPrefix("   headline.main  \"Dogs sail the harbour at dawn\"  ("))
        // When the row of `name` is chosen
        let row = try #require(paths.firstIndex(of: "name")) + 1
        for _ in 0..<row { state.press("j") }
        screen = try #require(state.screens.shown(as: FieldsScreen.self))
        #expect(screen.selection == row)
        let effects = state.press(.enter)
        // Then the pick is asked for and the list is back
        #expect(effects == [.pinField(FieldPick(part: .title, path: "name"))])
        #expect(state.screens.shown == .list)
    }

    @Test func automaticUndoesAPinAndEscGoesBackAPart() throws {
        var state = try Self.state()
        state.press("e")
        state.send(.fieldsPlanned(page: 1, try Self.plan(FieldMapping(link: "web")), subtitle: []))
        // Down to link, Enter: the pinned path is the one marked and selected.
        state.press("j")
        state.press(.enter)
        var screen = try #require(state.screens.shown(as: FieldsScreen.self))
        #expect(screen.choosing == .link && screen.selection == 1 && screen.paths(for: .link).first == "web")
        #expect(App.view(state).trimmedLines[3].hasPrefix(" ● web "))
        // Esc: back to the parts, on link
        state.press(.escape)
        screen = try #require(state.screens.shown(as: FieldsScreen.self))
        #expect(screen.choosing == nil && screen.selection == 1)
        // Enter, g (automatic), Enter: the pin is undone
        state.press(.enter)
        state.press("g")
        #expect(state.press(.enter) == [.pinField(FieldPick(part: .link, path: nil))])
        // And q from the parts goes back to the list
        state.press("e")
        state.press("q")
        #expect(state.screens.shown == .list)
    }

    @Test func aSavedPickRereadsTheListAtOnceKeepingTheSelection() throws {
        var state = try Self.state()
        let before = state.list.selectedKey
        state.send(.fieldsPinned(message: "title: `name`, saved in feeds.json as 'x'", pages: [try Self.page(FieldMapping(title: "name"))]))
        #expect(state.list.items.map(\.title) == ["cats-doors", "dogs-boats", "owls-night"])
        #expect(state.list.selectedKey == before && state.list.selection == 1)
        #expect(state.toasts.last?.message == "title: `name`, saved in feeds.json as 'x'")
        #expect(App.view(state).trimmedLines.contains { $0.contains("dogs-boats") })
    }

    @Test func aPlanThatCannotBeWorkedOutSaysWhy() throws {
        var state = try Self.state()
        state.press("e")
        state.send(.fieldsPlanFailed(page: 1, "page 1 is not stored; r loads it again"))
        #expect(App.view(state).trimmedLines[1] == " the page's plan could not be worked out: page 1 is not stored; r loads it again")
        // An answer for another page is not this picker's.
        state.send(.fieldsPlanned(page: 2, try Self.plan(), subtitle: []))
        #expect(state.screens.shown(as: FieldsScreen.self)?.plan == nil)
    }

    @Test func theSubtitleListsThePathsTheFeedNames() throws {
        var state = try Self.state()
        state.press("e")
        state.send(.fieldsPlanned(page: 1, try Self.plan(), subtitle: ["by"]))
        #expect(App.view(state).trimmedLines.contains(" subtitle  `by`: the feed's `fields`"))
        state.press("j"); state.press("j")
        state.press(.enter)
        let screen = try #require(state.screens.shown(as: FieldsScreen.self))
        #expect(screen.choosing == .subtitle && screen.paths(for: .subtitle).first == "by" && screen.selection == 1)
    }

    @Test func theValuesListStopsAtItsBounds() {
        let wide = JSONValue.object(JSONObject((0..<500).map { ("k\($0)", .number("\($0)")) }))
        #expect(FieldsScreen.leaves(of: wide).count == FieldsScreen.maxLeaves)
        let deep: JSONValue = ["a": ["b": ["c": ["d": ["e": ["f": 1]]]]], "list": [1, 2, 3, 4, 5]]
        let paths = FieldsScreen.leaves(of: deep).map(\.path.description)
        #expect(paths == ["a.b.c.d.e", "list.0", "list.1", "list.2"])
    }
}
