import Foundation
import RiffleKit
import RiffleReading
import Testing
@testable import RiffleTUI

@Suite("update: seen and new, duplicates, where you are, sort")
struct ReadingTests {
    static let wide = Size(width: 80, height: 8)

    static func item(_ id: String, url: String? = nil, age: TimeInterval? = nil, score: Int? = nil) -> Item {
        var item = Fixture.item(id, url: url, age: age)
        item.score = score
        return item
    }

    @Test func byDefaultAnItemIsSeenWhenOpenedNotWhenSelectedOrPassed() {
        // Given the log's answer (nothing seen) and the first item selected
        let items = (1...10).map { Fixture.item("p1 item \($0)", url: "https://example.com/\($0)") }
        var state = Fixture.state(showing: Fixture.page(1, items: items), size: Self.wide)
        state.send(.seenLoaded([]))
        #expect(App.view(state).trimmedLines[7].contains("10 new"))
        // When it stays selected a long while and the selection moves past it, nothing is seen
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(60))) == [])
        #expect(state.press("j") == [] && state.press("j") == [])
        #expect(state.unseenCount == 10)
        // When one is opened (Enter), it is seen and the log is told; o and c too
        state.press("g")
        #expect(state.press(.enter) == [.mark([state.list.items[0]], seen: true)])
        state.press(.escape)
        state.press("j")
        #expect(state.press("o").contains(.mark([state.list.items[1]], seen: true)))
        #expect(state.unseenCount == 8 && App.view(state).trimmedLines[7].contains("8 new"))
    }

    @Test func withSeenScrollTheRowsMovedDownPastAreSeenButOnesMarkedUnseenStaySo() {
        // Given seen: scroll, nothing seen, the third item marked seen then unseen again with m
        var state = Fixture.state(size: Self.wide)
        state.settings.seen = .scroll
        state.send(.seenLoaded([]))
        state.list.selection = 2
        let passed = Array(state.list.items[0..<2])
        state.press("m"); state.press("m")
        state.press("g")
        // When the selection moves down past two rows, one at a time
        #expect(state.press("j") == [.mark([passed[0]], seen: true)])
        #expect(state.press("j") == [.mark([passed[1]], seen: true)])
        // Then moving on past the one marked unseen leaves it unseen (m is sticky); a screen down marks the rest passed
        let effects = state.press(.pageDown)
        #expect(state.isSeen(2) == false && state.isSeen(3) == true)
        #expect(effects.first == .mark(Array(state.list.items[3..<state.list.selection]), seen: true))
        // And moving up marks nothing
        #expect(state.press("k") == [])
        // Opening it makes it seen after all
        state.list.selection = 2
        #expect(state.press(.enter) == [.mark([state.list.items[2]], seen: true)])
    }

    @Test func seenRowsAreDimmerAndUnderNoColourCarryAGlyph() {
        var state = Fixture.state(size: Self.wide)
        state.send(.seenLoaded([state.list.items[1].readingKey]))
        var buffer = App.view(state)
        #expect(buffer[1, 2].style.dim && buffer[1, 2].style.role == .dim, "the seen title is dim")
        #expect(!buffer[1, 3].style.dim, "unseen ones are not")
        #expect(buffer.trimmedLines[2] == " p1 item 2")
        state.settings.marksWithGlyphs = true
        buffer = App.view(state)
        #expect(buffer.trimmedLines[2] == "·p1 item 2" && buffer.trimmedLines[3] == " p1 item 3")
    }

    @Test func mTogglesOneAndCapitalMMarksEverythingLoaded() {
        var state = Fixture.state(size: Self.wide)
        state.send(.seenLoaded([]))
        state.press("j")
        #expect(state.press("m") == [.mark([state.list.items[1]], seen: true)])
        #expect(state.press("m") == [.mark([state.list.items[1]], seen: false)])
        // It stays unseen while it stays selected
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(60))) == [])
        #expect(state.isSeen(1) == false)
        let all = state.press("M")
        #expect(all == [.mark(state.list.items, seen: true)])
        #expect(state.unseenCount == 0 && App.view(state).trimmedLines[7].contains("nothing new"))
    }

    @Test func marksMadeBeforeTheLogAnsweredAreKept() {
        var state = Fixture.state()
        state.press("m")
        state.send(.seenLoaded([state.list.items[5].readingKey]))
        #expect(state.feed.reading.seen == [state.list.items[0].readingKey, state.list.items[5].readingKey])
    }

    @Test func anItemAlreadyListedOnAnEarlierPageIsListedOnce() {
        // Given page 2 repeating page 1's last item (same id) and another's link
        let one = [Self.item("a", url: "https://x.example/a"), Self.item("b", url: "https://x.example/b")]
        let two = [Self.item("b", url: "https://x.example/other"), Self.item("c", url: "https://x.example/a"), Self.item("d")]
        let state = Fixture.state(pages: [Fixture.page(1, items: one), Fixture.page(2, items: two)], size: Self.wide)
        // Then the list has a, b, d: the repeats are left out
        #expect(state.list.rows.map { state.list.items[$0].title } == ["a", "b", "d"])
        #expect(App.view(state).trimmedLines[7].hasPrefix(" demo feed · item 3/3 · page 2"))
    }

    @Test func theStatusBarSaysWhereYouAreWithThePageCountWhenKnown() {
        var page = Fixture.page(2, items: Fixture.items(10, page: 2))
        page.totalPages = 9
        page.totalItems = 90
        var state = Fixture.state(pages: [Fixture.page(1), page], size: Self.wide)
        state.press("j")
        #expect(App.view(state).trimmedLines[7] == " demo feed · item 12/90 · page 2 of 9 · network · fetched 3m ago")
        state.press("g")
        #expect(App.view(state).trimmedLines[7] == " demo feed · item 1/90 · page 1 of 9 · network · fetched 3m ago")
    }

    @Test func sCyclesFeedOrderNewestAndTopScoreKeepingTheSelection() {
        let items = [Self.item("old", age: 3000, score: 50), Self.item("new", age: 10, score: 1), Self.item("mid", age: 600, score: 200),
                     Self.item("none")]
        var state = Fixture.state(pages: [Fixture.page(1, items: items), Fixture.page(2, items: [Self.item("two", age: 5)])], size: Self.wide)
        state.press("g")
        state.press("s")
        #expect(state.list.rows.map { state.list.items[$0].title } == ["two", "new", "mid", "old", "none"])
        #expect(state.list.selectedItem?.title == "old" && !state.list.lines.contains { $0.isPageBoundary })
        #expect(App.view(state).trimmedLines[7].contains("· newest first ·"))
        state.press("s")
        #expect(state.list.rows.map { state.list.items[$0].title } == ["mid", "old", "new", "none", "two"])
        #expect(App.view(state).trimmedLines[7].contains("top score first"))
        state.press("s")
        #expect(state.list.rows.map { state.list.items[$0].title } == ["old", "new", "mid", "none", "two"])
        #expect(state.list.lines.contains { $0.isPageBoundary })
    }
}

@Suite("update: reloads and watching bring new items without moving the cursor")
struct NewItemsTests {
    static func page(_ titles: [String], source: Page.Source = .network) -> Page {
        Fixture.page(1, items: titles.map { Fixture.item($0) }, source: source)
    }

    @Test func aReloadMarksWhatWasNotThereAndKeepsTheSelectedItemOnItsLine() {
        // Given twenty items, with the tenth selected
        let titles = (1...20).map { "item \($0)" }
        var state = Fixture.state(showing: Self.page(titles))
        for _ in 0..<9 { state.press("j") }
        let line = state.list.lineOfRow[state.list.selection] - state.list.scrollOffset
        // When r brings two new items at the top
        state.press("r")
        state.send(.pageLoaded(Self.page(["x", "y"] + titles)))
        // Then the same item is still selected on the same line of the screen, and a toast counts the new ones
        #expect(state.list.selectedItem?.title == "item 10")
        #expect(state.list.lineOfRow[state.list.selection] - state.list.scrollOffset == line)
        #expect(state.feed.reading.arrived == ["id:x", "id:y"])
        #expect(state.toasts.last?.message == "2 new items")
        // And at the top they carry "new"
        state.press("g")
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " x new" && lines[2] == " y new" && lines[3] == " item 1")
    }

    @Test func anUnchangedPageSaysNoNewItemsWithoutMovingTheSelection() {
        var state = Fixture.state(showing: Self.page(["a", "b", "c"]))
        state.press("j")
        state.press("r")
        state.send(.pageLoaded(Self.page(["a", "b", "c"], source: .revalidated)))
        #expect(state.toasts.last?.message == "no new items")
        #expect(state.list.selection == 1 && state.feed.reading.arrived.isEmpty)
    }

    @Test func capitalRSaysOnceWhenEveryPageIsAnswered() {
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("R")
        state.send(.pageLoaded(Fixture.page(1)))
        #expect(state.toasts.isEmpty)
        state.send(.pageLoaded(Fixture.page(2, items: Fixture.items(10, page: 2) + [Fixture.item("late")])))
        #expect(state.toasts.map(\.message) == ["1 new item"])
    }

    @Test func aWatchRevalidatesPageOneOnItsIntervalAndKeepsWhatMovedOn() {
        // Given a-c and twenty more, watching every 5 minutes, the fifteenth selected
        let more = (1...20).map { "item \($0)" }
        var state = Fixture.state(showing: Self.page(["a", "b", "c"] + more), size: Size(width: 80, height: 8))
        state.press("w")
        #expect(state.feed.watch?.interval == 300)
        for _ in 0..<14 { state.press("j") }
        // When the interval passes, page 1 is revalidated (a 304 when nothing changed)
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(100))) == [])
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(301))) == [.load(page: 1, policy: .returnCacheThenLoad)])
        // And when it brings n, pushing c off the page, c stays listed and b stays where it was
        let line = state.list.lineOfRow[state.list.selection] - state.list.scrollOffset
        state.send(.pageLoaded(Self.page(["n", "a", "b"] + more)))
        #expect(state.list.rows.map { state.list.items[$0].title } == ["n", "a", "b"] + more + ["c"])
        #expect(state.list.selectedItem?.title == "item 12" && state.list.lineOfRow[state.list.selection] - state.list.scrollOffset == line)
        #expect(state.feed.reading.arrived == ["id:n"] && state.toasts.last?.message == "1 new item")
        #expect(App.view(state).trimmedLines[7].contains("watch 5m"))
        // A watch that finds nothing says nothing
        state.send(.tick(Fixture.now.addingTimeInterval(700)))
        state.send(.pageLoaded(Self.page(["n", "a", "b"] + more + ["c"], source: .revalidated)))
        #expect(state.toasts.last?.message == "1 new item" && state.toasts.count == 2)
        // w stops it
        state.press("w")
        #expect(state.feed.watch == nil && state.send(.tick(Fixture.now.addingTimeInterval(5000))) == [])
    }

    @Test func aWatchRefusedForAWhileAsksAgainOnlyWhenTheServerSaidItWouldAnswer() {
        // Given a watch every 5 minutes whose revalidation the server refuses for 2 hours
        var state = Fixture.state(showing: Self.page(["a", "b"]), size: Size(width: 80, height: 8))
        state.press("w")
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(301))) == [.load(page: 1, policy: .returnCacheThenLoad)])
        state.send(.pageFailed(page: 1, error: .request(.httpStatus(code: 429, excerpt: "try again in 2h; slow down"))))
        #expect(state.toasts.last?.message.contains("try again in 2h") == true)
        // Then the intervals within those 2 hours ask nothing, and the first after them asks again
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(602))) == [])
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(301 + 7_100))) == [])
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(301 + 7_201))) == [.load(page: 1, policy: .returnCacheThenLoad)])
        // And a failure that says nothing of a wait keeps the interval
        state.send(.pageFailed(page: 1, error: .request(.httpStatus(code: 500, excerpt: "boom"))))
        #expect(state.send(.tick(Fixture.now.addingTimeInterval(301 + 7_201 + 301))) == [.load(page: 1, policy: .returnCacheThenLoad)])
    }
}

@Suite("update: copying, comments, the feed list and search")
struct DailyScreensTests {
    static let story = Fixture.item("Show HN: x", url: "https://example.com/x", fields: ["id": .number("1"), "title": "Show HN: x"])
    static let thread = CommentThread(comments: [
        .init(depth: 0, author: "ann", text: "first", createdAt: Fixture.now.addingTimeInterval(-3600)),
        .init(depth: 1, author: "bob", text: "a reply that is long enough to wrap on a narrow screen", createdAt: nil),
        .init(depth: 2, author: nil, text: "[deleted]", createdAt: nil),
        .init(depth: 0, author: "cy", text: "second", createdAt: nil),
        .init(depth: 0, author: nil, text: "", createdAt: nil, more: 7),
    ])

    @Test func yCopiesTheLinkAndCapitalYTheJSON() {
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story, Fixture.item("no link")]))
        #expect(state.press("y") == [.copy("https://example.com/x", what: "link")])
        #expect(state.press("Y") == [.copy(#"{"id":1,"title":"Show HN: x"}"#, what: "JSON")])
        state.press("j")
        #expect(state.press("y") == [] && state.toasts.last?.message == "no link to copy")
    }

    @Test func aFeedWithoutCommentsSaysSo() {
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story]))
        #expect(state.press("c") == [] && state.press("C") == [])
        #expect(state.toasts.map(\.message).allSatisfy { $0.hasPrefix("no comments") || $0.hasPrefix("no discussion") })
        #expect(state.screens.shown == .list)
    }

    @Test func cShowsTheThreadAsAnIndentedTreeThatFolds() {
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story]), size: Size(width: 40, height: 14))
        state.feed.commentsAvailable = true
        #expect(state.press("c") == [.loadComments(Self.story, policy: .returnCacheElseLoad), .mark([Self.story], seen: true)])
        #expect(App.view(state).trimmedLines.contains { $0.hasSuffix(" loading comments…") })
        state.send(.commentsLoaded(item: Self.story.readingKey, Self.thread))
        var lines = App.view(state).trimmedLines
        // Then the story comes first, then each comment under guides, one a level
        #expect(Array(lines[0...12]) == [
            " Show HN: x                      q back",
            " Show HN: x",
            " example.com · 4 comments",
            "",
            " ann · 1h ago",
            " first",
            "",
            " │ bob",
            " │ a reply that is long enough to wrap",
            " │ on a narrow screen",
            " │",
            " │ │ [deleted]",
            " │ │ [deleted]",
        ])
        // When Enter folds ann's thread, its replies go and it says how many
        state.press(.enter)
        lines = App.view(state).trimmedLines
        #expect(Array(lines[4...10]) == [" ann · 1h ago · [+2] replies folded", " first", "", " cy", " second", "",
                                         " … 7 more replies (C opens the page)"])
        // j moves to the next comment shown, q goes back to the list
        state.press("j")
        #expect(state.comments?.selection == 3)
        state.press("q")
        #expect(state.screens.shown == .list && !state.shouldQuit)
    }

    @Test func aCommentsFailureSaysWhyWithTheWayToRetry() {
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story]), size: Size(width: 40, height: 10))
        state.feed.commentsAvailable = true
        state.press("c")
        state.send(.commentsFailed(item: Self.story.readingKey, .request(.httpStatus(code: 404, excerpt: ""))))
        #expect(App.view(state).trimmedLines.contains { $0.contains("r to retry") })
        #expect(state.press("r") == [.loadComments(Self.story, policy: .reloadIgnoringCache)])
    }

    @Test func theFeedListShowsCountsOpensAFeedAndComesBack() {
        // Given the browser starting on the feed list
        var state = AppState.feedList(size: Size(width: 80, height: 8), now: Fixture.now)
        #expect(state.send(.start) == [.listFeeds])
        state.send(.feedsListed([FeedEntry(name: "hn", description: "Hacker News", origin: .preset),
                                 FeedEntry(name: "reddit", description: "a subreddit", argument: "SUBREDDIT", origin: .preset)]))
        state.send(.feedSummarized(name: "hn", FeedSummary(unseen: 12, fetchedAt: Fixture.now.addingTimeInterval(-300))))
        state.send(.feedSummarized(name: "reddit", FeedSummary(unseen: nil, fetchedAt: nil)))
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " hn                12 new            fetched 5m ago    Hacker News")
        #expect(lines[2] == " reddit:SUBREDDIT  not fetched                         a subreddit")
        // When Enter opens hn, the browser loads it and q comes back to the list
        #expect(state.press(.enter) == [.openFeed("hn")])
        #expect(state.send(.feedOpened(title: "hn", hasComments: true)) == [.load(page: 1, policy: .returnCacheElseLoad)])
        #expect(state.screens.shown == .list && state.feed.title == "hn" && state.feed.commentsAvailable)
        state.send(.pageLoaded(Fixture.page(1)))
        // (the list asks for its counts again: the feed just read changed them)
        #expect(state.press("q") == [.listFeeds] && state.feeds != nil && !state.shouldQuit)
        // A feed that takes an argument asks for it first
        state.press("j")
        state.press(.enter)
        for character in "swift" { state.press(.character(character)) }
        #expect(App.view(state).trimmedLines[7] == " reddit:swift")
        #expect(state.press(.enter) == [.openFeed("reddit:swift")])
        // And q on the list quits
        #expect(state.press("q") == [.quit])
    }

    @Test func capitalFListsFeedsOverTheFeedBeingReadAndEscComesBack() {
        var state = Fixture.state()
        state.press("j")
        #expect(state.press("F") == [.listFeeds])
        #expect(state.feeds != nil)
        #expect(App.view(state).trimmedLines[0].hasSuffix("e rename · d remove · q back"))
        state.press(.escape)
        #expect(state.screens.shown == .list && state.list.selection == 1)
        // q comes back too, without quitting
        state.press("F")
        #expect(state.press("q") == [] && state.screens.shown == .list && !state.shouldQuit)
    }

    @Test func capitalSSearchesEverythingSeenAndShowsTheMatches() throws {
        var state = Fixture.state(size: Size(width: 60, height: 8))
        state.press("S")
        for character in "swift" { state.press(.character(character)) }
        #expect(state.press(.enter) == [.search("swift", order: .newest)])
        #expect(App.view(state).trimmedLines.contains { $0.contains("searching…") })
        let match = ReadingLog.Match(feedID: "f", feedTitle: "lobsters", key: "id:1", title: "Swift on Linux", author: "ann", text: "",
                                     link: "https://example.com/s", id: "1", createdAt: Fixture.now.addingTimeInterval(-7200),
                                     listedAt: Fixture.now, seenAt: nil)
        state.send(.searched(query: "swift", [match]))
        let lines = App.view(state).trimmedLines
        #expect(lines[0].hasPrefix(" search: swift"))
        #expect(lines[1] == " Swift on Linux (example.com)  lobsters · ann · 2h ago")
        #expect(lines[7].hasPrefix(" match 1/1"))
        #expect(state.press("y") == [.copy("https://example.com/s", what: "link")])
        state.press(.enter)
        #expect(state.detail?.item.title == "Swift on Linux")
        state.press("q")
        state.press("q")
        #expect(state.screens.shown == .list && !state.shouldQuit)
    }
}

extension AppState {
    var comments: CommentsScreen? { if case .comments(let c) = screens.shown { c } else { nil } }
    var feeds: FeedsScreen? { if case .feeds(let f) = screens.shown { f } else { nil } }
}

@Suite("update: a reload merges by id across every loaded page")
struct MergeByIDTests {
    /// A newest-first feed of `count` items, `size` a page, with `inserted` new items on top: item
    /// titles are "s1", "s2"... (oldest has the highest number), new ones "new1"...
    static func feed(inserted: Int, count: Int = 30) -> [Item] {
        (0..<inserted).map { Fixture.item("new\(inserted - $0)") } + (1...count).map { Fixture.item("s\($0)") }
    }

    static func page(_ number: Int, of feed: [Item], size: Int = 5) -> Page {
        Fixture.page(number, items: Array(feed[(number - 1) * size..<min(feed.count, number * size)]))
    }

    static func titles(_ state: AppState) -> [String] { state.list.rows.map { state.list.items[$0].title } }

    @Test func reloadingPageOneKeepsTheItemsItPushedOnToPageTwo() {
        // Given pages 1-2 of a newest-first feed
        let before = Self.feed(inserted: 0)
        var state = Fixture.state(pages: [Self.page(1, of: before), Self.page(2, of: before)])
        state.send(.seenLoaded([]))
        state.press("g")
        // When three items arrive at the top and page 1 is reloaded (g r)
        let after = Self.feed(inserted: 3)
        #expect(state.press("r") == [.load(page: 1, policy: .reloadIgnoringCache)])
        state.send(.pageLoaded(Self.page(1, of: after)))
        // Then the three pushed off page 1 are still listed (above page 2's own), and only three are new
        #expect(Self.titles(state) == ["new3", "new2", "new1", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"])
        #expect(state.feed.reading.arrived == ["id:new1", "id:new2", "id:new3"])
        #expect(state.toasts.last?.message == "3 new items")
        // And the selected item stayed selected
        #expect(state.list.selectedItem?.title == "s1")
    }

    @Test func markedSeenThenThreeArriveThenCapitalRSaysThreeAndSeenStaysSeen() {
        // Given pages 1-3, everything marked seen (n M)
        let before = Self.feed(inserted: 0)
        var state = Fixture.state(pages: [Self.page(1, of: before), Self.page(2, of: before)])
        state.send(.seenLoaded([]))
        state.press("n")
        state.send(.pageLoaded(Self.page(3, of: before)))
        state.press("M")
        #expect(state.unseenCount == 0)
        // When three arrive at the top and R reloads every page, answered last page first
        let after = Self.feed(inserted: 3)
        #expect(state.press("R").count == 3)
        for number in [3, 2, 1] { state.send(.pageLoaded(Self.page(number, of: after))) }
        // Then it says 3 new items (not 6), nothing is lost or listed twice, and only the new ones are unseen
        #expect(state.toasts.last?.message == "3 new items")
        #expect(Self.titles(state) == ["new3", "new2", "new1"] + (1...15).map { "s\($0)" })
        #expect(state.unseenCount == 3 && state.feed.reading.arrived == ["id:new1", "id:new2", "id:new3"])
        for (row, index) in state.list.rows.enumerated() where row >= 3 {
            #expect(state.isSeen(index) == true, "\(state.list.items[index].title) lost its seen mark")
        }
        let lines = App.view(state).trimmedLines
        #expect(lines.contains { $0.hasPrefix(" s11") } && !lines.contains { $0.hasPrefix(" s") && $0.hasSuffix(" new") }, "\(lines)")
    }

    @Test func aReloadInAnyOrderListsEveryItemOnceAndCountsEachNewOneOnce() {
        // Given pages 1-3 loaded
        let before = Self.feed(inserted: 0)
        var state = Fixture.state(pages: [Self.page(1, of: before), Self.page(2, of: before)])
        state.press("n")
        state.send(.pageLoaded(Self.page(3, of: before)))
        // When seven arrive (more than a page) and R is answered page 2, then 1, then 3
        let after = Self.feed(inserted: 7)
        state.press("R")
        for number in [2, 1, 3] { state.send(.pageLoaded(Self.page(number, of: after))) }
        // Then every item of before is listed once, in the feed's order, after the seven new ones
        #expect(Self.titles(state) == (1...7).reversed().map { "new\($0)" } + (1...15).map { "s\($0)" })
        #expect(state.toasts.last?.message == "7 new items")
        // And a later watch that brings them again finds nothing new
        state.press("w")
        state.send(.tick(Fixture.now.addingTimeInterval(400)))
        let toasts = state.toasts.count
        state.send(.pageLoaded(Self.page(1, of: after)))
        #expect(state.toasts.count == toasts && state.feed.reading.arrived.count == 7)
    }

    @Test func aWatchTickMergesPageOneIntoEveryLoadedPage() {
        // Given pages 1-2 and a watch
        let before = Self.feed(inserted: 0)
        var state = Fixture.state(pages: [Self.page(1, of: before), Self.page(2, of: before)])
        state.press("w")
        // When two arrive and the watch brings page 1
        state.send(.tick(Fixture.now.addingTimeInterval(301)))
        state.send(.pageLoaded(Self.page(1, of: Self.feed(inserted: 2))))
        // Then the two pushed off page 1 lead page 2, and two are new
        #expect(Self.titles(state) == ["new2", "new1"] + (1...10).map { "s\($0)" })
        #expect(state.list.firstRow(ofPage: 2).map { Self.titles(state)[$0] } == "s4")
        #expect(state.toasts.last?.message == "2 new items")
    }
}
