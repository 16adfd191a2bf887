import Foundation
import RiffleKit
import RiffleReading
import Testing
@testable import RiffleTUI

@Suite("search results you can act on: newest first, s for relevance, Enter and c in the item's feed")
struct SearchTests {
    static let older = Fixture.item("p2 item 3")
    /// A match for page 2's third item of the fixture feed, filed under the feed opened as "demo".
    static func match(_ title: String = "p2 item 3", feedName: String? = "demo", hoursAgo: Double = 2) -> ReadingLog.Match {
        ReadingLog.Match(feedID: "f", feedTitle: "demo feed", key: Fixture.item(title).readingKey, title: title, author: nil, text: "",
                         link: nil, id: title, createdAt: Fixture.now.addingTimeInterval(-hoursAgo * 3600), listedAt: Fixture.now,
                         seenAt: nil, feedName: feedName)
    }

    /// Search results for "item" over the feed list, `matches` in (`hidden`: those the rules of their feeds hide).
    static func results(_ matches: [ReadingLog.Match], hidden: Set<Int> = []) -> AppState {
        var state = AppState.feedList(size: Size(width: 60, height: 10), now: Fixture.now)
        state.press("S")
        for character in "item" { state.press(.character(character)) }
        state.press(.enter)
        state.send(.searched(query: "item", matches, hidden: hidden))
        return state
    }

    @Test func emojiAloneAreNoWordsAndSaySoRatherThanFindNothing() {
        // Given the search prompt over the feed list
        var state = AppState.feedList(size: Size(width: 100, height: 10), now: Fixture.now)
        state.press("S")
        for character in "🎉!" { state.press(.character(character)) }
        // When Enter asks, nothing is searched and a toast says why
        #expect(state.press(.enter) == [])
        #expect(state.screens.shown(as: SearchScreen.self) == nil)
        #expect(state.toasts.last?.message == "search looks for words: '🎉!' has no letters or digits (emoji, symbols and punctuation are not indexed)")
        // And words beside an emoji are searched
        state.press("S")
        for character in "🎉 party" { state.press(.character(character)) }
        #expect(state.press(.enter) == [.search("🎉 party", order: .newest)])
    }

    /// A `.PATH:` rule of a result's feed reads the item's JSON, which the reading log does not keep: a
    /// toast says it was not applied, rather than leave it to look applied (as `riffle search --hide` says).
    @Test func aRuleSearchCannotApplyIsNamedInAToast() {
        // Given results whose feed hides with a field rule
        var state = Self.results([Self.match()])
        #expect(state.toasts.isEmpty)
        // When the search answers naming the rule it could not apply
        state.send(.searched(query: "item", [Self.match()], unapplied: ["._tags:job", ".kind:ad"]))
        // Then a toast names the rules and says why, and the results are listed all the same
        #expect(state.toasts.map(\.message) == ["'._tags:job', '.kind:ad' not applied: search keeps no item's JSON"])
        #expect(App.view(state).description.contains("p2 item 3"))
        // And an answer for another query says nothing
        state.send(.searched(query: "other", [Self.match()], unapplied: [".kind:ad"]))
        #expect(state.toasts.count == 1)
    }

    @Test func sSwitchesBetweenNewestFirstAndBestFirstAskingAfresh() {
        var state = Self.results([Self.match()])
        #expect(App.view(state).trimmedLines[9].contains("newest first"))
        // When s is pressed, the search is asked again in the other order, and said
        #expect(state.press("s") == [.search("item", order: .relevance)])
        #expect(App.view(state).trimmedLines[9].contains("best match first"))
        #expect(App.view(state).description.contains("searching…"))
        // And again, back to newest first
        state.send(.searched(query: "item", [Self.match()]))
        #expect(state.press("s") == [.search("item", order: .newest)])
    }

    @Test func enterOpensTheMatchInItsFeedReadingPagesUntilItIsListed() {
        // Given a match from page 2 of its feed
        var state = Self.results([Self.match("p1 item 1", hoursAgo: 1), Self.match()])
        state.press("j")
        // When Enter is pressed, its feed is opened
        #expect(state.press(.enter) == [.openFeed("demo")])
        // Then once open, page 1 is asked for (from the disk when stored), and page 2 after it
        #expect(state.send(.feedOpened(title: "demo feed", hasComments: true)) == [.load(page: 1, policy: .returnCacheElseLoad)])
        #expect(state.send(.pageLoaded(Fixture.page(1))) == [.record(Fixture.items(10)), .load(page: 2, policy: .returnCacheElseLoad)])
        // And when page 2 holds it, it is selected and opened (seen, as Enter on the list does)
        let effects = state.send(.pageLoaded(Fixture.page(2)))
        #expect(effects.contains(.mark([Fixture.item("p2 item 3")], seen: true)))
        #expect(state.detail?.item.title == "p2 item 3")
        #expect(state.list.selectedItem?.title == "p2 item 3")
        // And q goes back to its list, at it, then to the results, then to the feed list
        state.press("q")
        #expect(state.screens.shown == .list && App.view(state).trimmedLines.last?.contains("item 13/20") == true)
        state.press("q")
        #expect(state.screens.shown(as: SearchScreen.self)?.selection == 1)
        state.press("q")
        #expect(state.feeds != nil && !state.shouldQuit)
    }

    @Test func cOpensTheMatchsCommentsInItsFeed() {
        var state = Self.results([Self.match("p1 item 2")])
        #expect(state.press("c") == [.openFeed("demo")])
        state.send(.feedOpened(title: "demo feed", hasComments: true))
        let effects = state.send(.pageLoaded(Fixture.page(1)))
        #expect(effects.contains(.loadComments(Fixture.item("p1 item 2"), policy: .returnCacheElseLoad)))
        #expect(state.comments != nil && state.list.selectedItem?.title == "p1 item 2")
    }

    @Test func aMatchTheFeedNoLongerHoldsSaysSoAtItsEnd() {
        var state = Self.results([Self.match("gone long ago")])
        state.press(.enter)
        state.send(.feedOpened(title: "demo feed", hasComments: false))
        state.send(.pageLoaded(Fixture.page(1)))
        // When the feed ends without it
        #expect(state.send(.pageLoaded(Fixture.page(2, items: []))) == [])
        // Then a toast says so, the list stays on its first item, and nothing more is asked
        #expect(state.toasts.last?.message == "\"gone long ago\" is no longer in the first 1 pages of demo feed")
        #expect(state.feed.reveal == nil && state.screens.shown == .list && state.list.selection == 0)
    }

    @Test func aFailedPageEndsTheLookingWithItsOwnToast() {
        var state = Self.results([Self.match()])
        state.press(.enter)
        state.send(.feedOpened(title: "demo feed", hasComments: false))
        state.send(.pageLoaded(Fixture.page(1)))
        state.send(.pageFailed(page: 2, error: .request(.transport("HTTP 500 Internal Server Error"))))
        #expect(state.feed.reveal == nil)
        #expect(state.toasts.map(\.message) == ["page 2: HTTP 500 Internal Server Error"])
    }

    @Test func aMatchWhoseFeedCannotBeOpenedAgainShowsItsFields() {
        var state = Self.results([Self.match(feedName: nil)])
        #expect(state.press(.enter) == [])
        #expect(state.detail?.item.title == "p2 item 3")
    }

    @Test func matchesTheRulesOfTheirFeedHideAreLeftOutAndHListsThemDimmed() {
        // Given three matches, the second one hidden by its feed's rules
        var state = Self.results([Self.match("p1 item 1", hoursAgo: 1), Self.match("p1 item 2", hoursAgo: 2), Self.match(hoursAgo: 3)],
                                 hidden: [1])
        // Then the results list the other two, and the status bar counts the hidden one
        var screen = App.view(state)
        #expect(!screen.description.contains("p1 item 2"), "\(screen)")
        #expect(screen.trimmedLines[9].hasPrefix(" match 1/2 · 1 hidden · newest first"), "\(screen)")
        // When j selects the second one listed (p2 item 3) and H is pressed
        state.press("j")
        state.press("H")
        // Then all three are listed, the hidden one dimmed and marked, the selection still on its match
        screen = App.view(state)
        let row = screen.trimmedLines.firstIndex { $0.contains("p1 item 2") }
        #expect(row.map { screen.trimmedLines[$0].contains("p1 item 2 hidden") && screen[1, $0].style.dim } == true, "\(screen)")
        #expect(screen.trimmedLines[9].hasPrefix(" match 3/3 · 1 hidden shown · newest first"), "\(screen)")
        #expect(state.toasts.last?.message == "showing 1 match the rules hide, dimmed")
        // When H is pressed again, it is left out again, the selection on the same match
        state.press("H")
        #expect(!App.view(state).description.contains("p1 item 2"))
        #expect(App.view(state).trimmedLines[9].hasPrefix(" match 2/2 · 1 hidden"))
        #expect(state.toasts.last?.message == "hiding 1 match again")
        // And Enter opens the selected listed match, not the hidden one at that place
        #expect(state.press(.enter) == [.openFeed("demo")])
        #expect(state.screens.shown(as: SearchScreen.self)?.opening?.title == "p2 item 3")
    }

    @Test func resultsTheRulesHideWholeSayHowToSeeThem() {
        var state = Self.results([Self.match()], hidden: [0])
        let screen = App.view(state)
        #expect(screen.description.contains("the 1 match is hidden by rules"), "\(screen)")
        #expect(screen.description.contains("H shows them"), "\(screen)")
        // H with nothing hidden says so
        state.send(.searched(query: "item", [Self.match()]))
        state.press("H")
        #expect(state.toasts.last?.message == "the rules hide none of these matches (\"hide\" in feeds.json)")
    }
}
