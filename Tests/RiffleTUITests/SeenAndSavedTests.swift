import Foundation
import RiffleKit
import RiffleReading
import Testing
@testable import RiffleTUI

@Suite("update: u jumps to the next unseen item, f saves one, F lists the saved ones")
struct SeenAndSavedTests {
    static let wide = Size(width: 80, height: 10)

    static func titles(_ state: AppState) -> [String] { state.list.rows.map { state.list.items[$0].title } }

    @Test func uSelectsTheNextUnseenItemAcrossLoadedPages() {
        // Given pages 1-2, everything on page 1 and the first three of page 2 seen but page 1's fourth
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)], size: Self.wide)
        let items = state.list.items
        state.send(.seenLoaded(Set(items[0..<13].map(\.readingKey)).subtracting([items[3].readingKey])))
        state.press("g")
        // When u is pressed, the fourth is selected; u again crosses into page 2, past its seen items
        #expect(state.press("u") == [])
        #expect(state.list.selectedItem?.title == "p1 item 4")
        state.press("u")
        #expect(state.list.selectedItem?.title == "p2 item 4" && state.list.pageNumber == 2)
        state.press("u")
        #expect(state.list.selectedItem?.title == "p2 item 5")
    }

    @Test func uLoadsTheNextPageWhenNothingLoadedIsUnseenAndSelectsItsFirstUnseen() {
        // Given page 1 of 40 items, all seen, and the first selected
        var state = Fixture.state(showing: Fixture.page(1, items: Fixture.items(40)), size: Self.wide)
        state.send(.seenLoaded(Set(state.list.items.map(\.readingKey))))
        // When u finds nothing below, it asks for page 2
        #expect(state.press("u") == [.load(page: 2, policy: .returnCacheElseLoad)])
        // And when page 2 comes with its first two seen, the third is selected
        var page2 = Fixture.items(5, page: 2)
        state.send(.seenLoaded(Set(page2[0..<2].map(\.readingKey))))
        page2[4].title = "p2 item 5"
        state.send(.pageLoaded(Fixture.page(2, items: page2)))
        #expect(state.list.selectedItem?.title == "p2 item 3")
        #expect(state.feed.paging.unseenSearch == nil)
    }

    @Test func uAtTheEndOfTheFeedStartsAgainFromTheTopOrSaysThereIsNone() {
        // Given the only page, its end known, the second item unseen and the last selected
        var state = Fixture.state(size: Self.wide)
        state.press("G")
        state.send(.pageLoaded(Fixture.page(2, items: [])))
        #expect(state.feed.paging.endOfFeed)
        let items = state.list.items
        state.send(.seenLoaded(Set(items.map(\.readingKey)).subtracting([items[1].readingKey])))
        // When u finds nothing below, it goes back to the first unseen from the top and says so
        #expect(state.press("u") == [])
        #expect(state.list.selectedItem?.title == "p1 item 2")
        #expect(state.toasts.last?.message == "no unseen items below: back to the first from the top")
        // And when that one is seen too, u says there is none
        state.press(.enter)
        state.press(.escape)
        state.press("u")
        #expect(state.toasts.last?.message == "no unseen items loaded" && state.list.selectedItem?.title == "p1 item 2")
    }

    @Test func fSavesAndUnsavesTheSelectedItemAndTheRowSaysSaved() {
        var state = Fixture.state(size: Self.wide)
        state.send(.seenLoaded([]))
        state.send(.savedLoaded([]))
        state.press("j")
        // When f is pressed, the item is saved (the log is told) and its row says so
        #expect(state.press("f") == [.save(state.list.items[1], saved: true)])
        #expect(App.view(state).trimmedLines[2] == " p1 item 2 saved")
        #expect(state.toasts.last?.message == "saved: F lists it under saved")
        // And f again unsaves it
        #expect(state.press("f") == [.save(state.list.items[1], saved: false)])
        #expect(App.view(state).trimmedLines[2] == " p1 item 2")
        // The log's saved keys show as marks when the feed opens
        state.send(.savedLoaded([state.list.items[4].readingKey]))
        #expect(App.view(state).trimmedLines[5] == " p1 item 5 saved")
        // An item opened from the list can be saved from its own screen too
        state.press(.enter)
        #expect(state.press("f") == [.save(state.list.items[1], saved: true)])
    }

    @Test func theFeedListEndsWithSavedWhichListsTheSavedItemsOffline() {
        // Given the feed list with one feed
        var state = AppState.feedList(size: Size(width: 80, height: 8), now: Fixture.now)
        state.send(.start)
        state.send(.feedsListed([FeedEntry(name: "hn", description: "Hacker News", origin: .preset)]))
        let saved = [
            ReadingLog.SavedItem(feedID: "f-hn", feedTitle: "hn", key: "id:1",
                                 item: Fixture.item("Show HN: one", url: "https://example.com/1"), savedAt: Fixture.now),
            ReadingLog.SavedItem(feedID: "f-lob", feedTitle: "lobsters", key: "id:2", item: Fixture.item("two"), savedAt: Fixture.now),
        ]
        state.send(.savedListed(saved))
        // Then its last row is "saved" with the count, and the status bar counts the feeds alone
        var lines = App.view(state).trimmedLines
        #expect(lines[2].hasPrefix(" saved     2 saved") && lines[2].contains("items saved with f"))
        #expect(lines[7].hasPrefix(" 1 feed ·"))
        // When Enter opens it, the saved items are asked for and listed, each with its feed
        state.press("j")
        #expect(state.press(.enter) == [.listSaved])
        state.send(.savedListed(saved))
        lines = App.view(state).trimmedLines
        #expect(lines[0].hasPrefix(" saved") && lines[1].hasPrefix(" Show HN: one") && lines[1].hasSuffix("  hn"))
        #expect(lines[2].hasPrefix(" two  lobsters"))
        #expect(lines[7].hasPrefix(" item 1/2 · every feed, offline"))
        // o opens its link; f unsaves it and it leaves the list; the feed list's count follows
        #expect(state.press("o").first == .open(URL(string: "https://example.com/1")!))
        #expect(state.press("f") == [.unsave(feedID: "f-hn", key: "id:1")])
        lines = App.view(state).trimmedLines
        #expect(lines[1].hasPrefix(" two  lobsters") && !lines.contains { $0.contains("Show HN") })
        state.send(.savedListed(Array(saved[1...])))
        state.press("q")
        #expect(App.view(state).trimmedLines[2].hasPrefix(" saved     1 saved"))
    }

    @Test func cOnASavedItemOpensItsFeedAndItsCommentsThereOrSaysWhyNot() {
        // Given the saved items: one of a feed the log can open again, one of a feed it forgot
        var state = AppState.feedList(size: Size(width: 80, height: 8), now: Fixture.now)
        state.send(.start)
        state.send(.feedsListed([FeedEntry(name: "hn", description: "Hacker News", origin: .preset)]))
        let story = Fixture.item("Show HN: one", url: "https://example.com/1", fields: ["objectID": "1"])
        let saved = [
            ReadingLog.SavedItem(feedID: "f-hn", feedTitle: "hn", key: story.readingKey, item: story, savedAt: Fixture.now, feedName: "hn"),
            ReadingLog.SavedItem(feedID: "f-old", feedTitle: "old feed", key: "id:2", item: Fixture.item("two"), savedAt: Fixture.now),
        ]
        state.press("j")
        state.press(.enter)
        state.send(.savedListed(saved))
        // When c is pressed on the first, its feed opens (by the name the log knows)
        #expect(state.press("c") == [.openFeed("hn")])
        // Then once it is open its comments load at once, over its list, from the saved copy
        let effects = state.send(.feedOpened(title: "hn", hasComments: true))
        #expect(effects.contains(.loadComments(story, policy: .returnCacheElseLoad)))
        #expect(effects.contains(.load(page: 1, policy: .returnCacheElseLoad)))
        #expect(App.view(state).trimmedLines[0].hasPrefix(" Show HN: one"))
        // And q goes back to the list, then to the saved items
        state.press("q")
        #expect(state.screens.shown == .list)
        state.press("q")
        #expect(App.view(state).trimmedLines[0].hasPrefix(" saved"))
        // When c is pressed on an item of a feed the log no longer knows, a toast says why
        state.send(.savedListed(saved))
        state.press("j")
        #expect(state.press("c") == [])
        #expect(state.toasts.last?.message == "no comments: riffle does not know how to open old feed again (open it once)")
        // And on the saved item's own screen, c (and m, C) say where they work
        state.press(.enter)
        #expect(state.press("c") == [])
        #expect(state.toasts.last?.message == "comments go through the item's feed: open it there (a saved item: c, a search result: Enter)")
        #expect(state.press("m") == [])
        #expect(state.toasts.last?.message.hasPrefix("seen marks go through the item's feed") == true)
    }
}

