import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("Items the feed's rules hide")
struct HiddenItemsTests {
    static let rules = [try! HideRule("crypto"), try! HideRule("site:spam.example")]

    /// A browser whose feed hides what `rules` say, nothing loaded yet.
    static func opened(size: Size = Fixture.size, rules: [HideRule] = rules) -> AppState {
        var state = AppState(feedTitle: "demo feed", size: size, now: Fixture.now)
        state.send(.feedOpened(title: "demo feed", hasComments: false, hide: rules))
        return state
    }

    static let page1 = Fixture.page(1, items: [
        Fixture.item("Swift 6 released"),
        Fixture.item("Crypto winter again"),
        Fixture.item("A post", url: "https://www.spam.example/x"),
        Fixture.item("Cryptography basics"),
    ])

    static func titles(_ state: AppState) -> [String] { state.list.rows.map { state.list.items[$0].title } }

    /// The loads among `effects` (a page that arrives is also recorded in the reading log).
    static func loads(_ effects: [Effect]) -> [Effect] { effects.filter { if case .load = $0 { true } else { false } } }

    @Test func hiddenItemsAreNotListedAndTheStatusBarCountsThem() {
        var state = Self.opened(size: Size(width: 60, height: 8))
        state.send(.pageLoaded(Self.page1))
        #expect(Self.titles(state) == ["Swift 6 released", "Cryptography basics"])
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...3]) == [" Swift 6 released", " Cryptography basics", ""])
        #expect(lines[7] == " item 1/2 · page 1 · 2 hidden · network · fetched 3m ago")
    }

    @Test func hShowsThemDimmedAndHidesThemAgain() {
        // Given two of four items hidden, the second listed one selected
        var state = Self.opened(size: Size(width: 90, height: 8))
        state.send(.pageLoaded(Self.page1))
        state.press("j")
        // When H is pressed
        state.press("H")
        // Then all four are listed, the hidden ones dim with "hidden" after the title
        #expect(Self.titles(state) == ["Swift 6 released", "Crypto winter again", "A post", "Cryptography basics"])
        let screen = App.view(state)
        #expect(Array(screen.trimmedLines[1...4]) == [" Swift 6 released", " Crypto winter again hidden", " A post (spam.example) hidden",
                                                  " Cryptography basics"])
        #expect(screen[1, 2].style.dim && screen[21, 2].style.role == .placeholder)
        #expect(!screen[1, 1].style.dim)
        #expect(screen.trimmedLines[7].hasPrefix(" demo feed · item 4/4 · page 1 · 2 hidden shown · network · fetched 3m ago"))
        #expect(state.toasts.last?.message == "showing 2 items the rules hide, dimmed")
        // And the item selected before stays selected
        #expect(state.list.selectedItem?.title == "Cryptography basics")
        // When H is pressed again, they are gone again
        state.press("H")
        #expect(Self.titles(state) == ["Swift 6 released", "Cryptography basics"])
        #expect(state.toasts.last?.message == "hiding 2 items again")
    }

    @Test func hWithoutRulesSaysWhereRulesGo() {
        var state = Self.opened(rules: [])
        state.send(.pageLoaded(Self.page1))
        state.press("H")
        #expect(state.list.rows.count == 4)
        #expect(state.toasts.last?.message == "no rules hide items of this feed (\"hide\" in feeds.json)")
    }

    @Test func unseenCountsNextUnseenAndMarkAllAgreeWithWhatIsShown() {
        var state = Self.opened(size: Size(width: 80, height: 8))
        state.send(.pageLoaded(Self.page1))
        state.send(.seenLoaded([]))
        // The count: the two listed, not the two hidden
        #expect(state.list.unseenCount(state.feed.reading) == 2)
        #expect(App.view(state).trimmedLines[7].contains("2 new"))
        // u goes from the first to the next listed one, over the hidden ones
        state.press("u")
        #expect(state.list.selectedItem?.title == "Cryptography basics")
        // M marks what is listed, not what is hidden
        let effects = state.press("M")
        #expect(effects == [.mark([Self.page1.items[0], Self.page1.items[3]], seen: true)])
        // Shown, the hidden ones count again
        state.press("H")
        #expect(state.list.unseenCount(state.feed.reading) == 2)
    }

    @Test func aFirstPageHiddenWholeLoadsTheNextAndSaysWhy() {
        // Given a feed whose first page is all hidden
        var state = Self.opened()
        state.send(.start)
        let hiddenPage = Fixture.page(1, items: [Fixture.item("crypto 1"), Fixture.item("crypto 2")])
        // When it arrives, the next page is asked for at once
        #expect(Self.loads(state.send(.pageLoaded(hiddenPage))) == [.load(page: 2, policy: .returnCacheElseLoad)])
        // And the screen says what happened and the ways on
        let lines = App.view(state).trimmedLines
        #expect(lines.contains { $0.contains("all 2 items loaded are hidden") })
        #expect(lines.contains { $0.contains("H shows them · n loads the") })
        // When page 2 brings something to show, it is listed and selected
        state.send(.pageLoaded(Fixture.page(2)))
        #expect(state.list.selectedItem?.title == "p2 item 1")
        #expect(state.feed.paging.requests.isEmpty)
    }

    @Test func nGoesPastAPageHiddenWhole() {
        // Given page 1 listed, its last item selected
        var state = Self.opened()
        state.send(.pageLoaded(Fixture.page(1)))
        // When n is pressed and page 2 comes all hidden
        #expect(state.press("n") == [.load(page: 2, policy: .returnCacheElseLoad)])
        let hidden = Fixture.page(2, items: [Fixture.item("crypto a"), Fixture.item("b", url: "https://spam.example/b")])
        // Then page 3 is asked for, and its first item selected when it comes
        #expect(Self.loads(state.send(.pageLoaded(hidden))) == [.load(page: 3, policy: .returnCacheElseLoad)])
        state.send(.pageLoaded(Fixture.page(3)))
        #expect(state.list.selectedItem?.title == "p3 item 1")
        #expect(state.list.selectedPage?.number == 3)
    }

    @Test func pagesHiddenWholeAreFollowedAFewInARowThenNGoesOn() {
        var state = Self.opened()
        state.send(.start)
        func hiddenPage(_ n: Int) -> Page { Fixture.page(n, items: [Fixture.item("crypto \(n)")]) }
        // Given pages that are all hidden, one after another
        for n in 1...App.hiddenPagesInARow {
            #expect(Self.loads(state.send(.pageLoaded(hiddenPage(n)))) == [.load(page: n + 1, policy: .returnCacheElseLoad)])
        }
        // Then after a few in a row the browser stops and says why and how to go on
        let last = App.hiddenPagesInARow + 1
        #expect(Self.loads(state.send(.pageLoaded(hiddenPage(last)))) == [])
        #expect(state.toasts.last?.message == "the rules hid every item of the last \(last) pages: n loads more, H shows them")
        // And n asks for the next page, and goes on past hidden ones again
        #expect(state.press("n") == [.load(page: last + 1, policy: .returnCacheElseLoad)])
        #expect(Self.loads(state.send(.pageLoaded(hiddenPage(last + 1)))) == [.load(page: last + 2, policy: .returnCacheElseLoad)])
        state.send(.pageLoaded(Fixture.page(last + 2)))
        #expect(state.list.selectedItem?.title == "p\(last + 2) item 1")
    }

    @Test func aPageWithSomethingShownIsNotFollowedAtOnce() {
        var state = Self.opened()
        state.send(.start)
        // A page of which one item shows is enough: nothing more is asked for without a reason
        #expect(Self.loads(state.send(.pageLoaded(Self.page1))) == [])
    }

    @Test func aSearchResultARuleHidesOpensWithTheHiddenItemsShown() {
        // Given a search result that the feed's rules hide
        var state = SearchTests.results([SearchTests.match("p1 item 3")])
        #expect(state.press(.enter) == [.openFeed("demo")])
        state.send(.feedOpened(title: "demo feed", hasComments: false, hide: [try! HideRule("item 3")]))
        // When its page arrives, the hidden items are shown and the result is selected and opened
        state.send(.pageLoaded(Fixture.page(1)))
        #expect(state.list.showsHidden)
        #expect(state.detail?.item.title == "p1 item 3")
        #expect(state.toasts.contains { $0.message == "a rule hides \"p1 item 3\": showing what the rules hide" })
    }

    @Test func theHelpAndTheKeymapNameTheKey() throws {
        let help = HelpOverlay()
        #expect(help.bindings.contains { $0.label == "H" && $0.action == "show / hide what rules hide" })
        var keys = KeyMap.standard
        try keys.bind("ctrl-h", to: "show-hidden")
        #expect(keys.command(for: .control("h")) == .showHidden)
    }

    @Test func xOffersTheAuthorAndTheSiteAndHidesByThePickOnceSaved() {
        // Given the list, its second item by "bob" at blog.example.org, selected
        var bob = Fixture.item("Rust notes", url: "https://www.blog.example.org/r")
        bob.author = "bob"
        var state = Self.opened(size: Size(width: 90, height: 8))
        state.send(.pageLoaded(Fixture.page(1, items: [Fixture.item("Swift 6 released"), bob, Fixture.item("Zig notes")])))
        state.press("j")
        // When x is pressed, a prompt offers its author and its site
        #expect(state.press("x") == [])
        #expect(App.view(state).trimmedLines[7] == " hide items like this: 1 author:bob  2 site:blog.example.org  (Esc: none)")
        // And 2 asks for the site's rule to be saved
        #expect(state.press("2") == [.addHideRule(try! HideRule("site:blog.example.org"))])
        #expect(state.screens.overlay == nil)
        // When it is saved, the list hides by it, the row selected holding the next item
        state.send(.hideRulesChanged(Self.rules + [try! HideRule("site:blog.example.org")], message: "hiding site:blog.example.org, saved"))
        #expect(Self.titles(state) == ["Swift 6 released", "Zig notes"])
        #expect(state.list.selectedItem?.title == "Zig notes")
        #expect(state.toasts.last?.message == "hiding site:blog.example.org, saved (1 loaded item hidden)")
    }

    @Test func xOnAnItemWithOneWayAsksYesOrNo() {
        var state = Self.opened(size: Size(width: 60, height: 8))
        state.send(.pageLoaded(Fixture.page(1, items: [Fixture.item("Swift", url: "https://example.com/s"), Fixture.item("bare")])))
        state.press("x")
        #expect(App.view(state).trimmedLines.last == " hide items with site:example.com? y/n")
        #expect(state.press("y") == [.addHideRule(try! HideRule("site:example.com"))])
        // Any other key hides nothing
        state.press("x")
        #expect(state.press("n") == [])
        #expect(state.toasts.last?.message == "nothing hidden")
        // An item with neither author nor link says so, and asks nothing
        state.press("j")
        #expect(state.press("x") == [])
        #expect(state.screens.overlay == nil)
        #expect(state.toasts.last?.message == "nothing to hide it by: the item has no author and no link")
    }

    @Test func xOnASearchResultSaysToOpenItInItsFeed() {
        var state = SearchTests.results([SearchTests.match("p1 item 3")])
        #expect(state.press("x") == [])
        #expect(state.toasts.last?.message == "open the result in its feed (Enter) to hide items like it")
    }
}
