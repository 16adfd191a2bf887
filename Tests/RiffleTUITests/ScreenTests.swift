import Foundation
import RiffleKit
import RiffleReading
import Testing
@testable import RiffleTUI

@Suite("screens: a stack, item commands written once, toasts drawn once")
struct ScreenTests {
    static let story = Fixture.item("Show HN: x", url: "https://example.com/x", fields: ["id": .number("1")])
    static let thread = CommentThread(comments: [.init(depth: 0, author: "ann", text: "first", createdAt: nil)])
    static let match = ReadingLog.Match(feedID: "other", feedTitle: "lobsters", key: "id:9", title: "Swift on Linux", author: nil, text: "",
                                        link: "https://example.com/s", id: "9", createdAt: nil, listedAt: Fixture.now, seenAt: nil)

    /// The list with the story, the log's answer in (nothing seen), comments available.
    static func listState() -> AppState {
        var state = Fixture.state(showing: Fixture.page(1, items: [Self.story, Fixture.item("other")]), size: Size(width: 50, height: 10))
        state.feed.commentsAvailable = true
        state.send(.seenLoaded([]))
        return state
    }

    /// The same story selected on each screen that shows it: the list, the item, its comments.
    static func storyScreens() -> [(String, AppState)] {
        let list = listState()
        var item = list
        item.press(.enter)
        var comments = list
        comments.press("c")
        comments.send(.commentsLoaded(item: Self.story.readingKey, Self.thread))
        return [("list", list), ("item", item), ("comments", comments)]
    }

    @Test func theItemCommandsDoTheSameOnEveryScreenThatShowsTheItem() {
        for (name, state) in Self.storyScreens() {
            var copy = state, json = state, discussion = state
            #expect(copy.press("y") == [.copy("https://example.com/x", what: "link")], "y on the \(name)")
            // (Y in the comments copies the selected comment's permalink: `CommentLinksTests`.)
            if name != "comments" { #expect(json.press("Y") == [.copy(#"{"id":1}"#, what: "JSON")], "Y on the \(name)") }
            #expect(discussion.press("C") == [.openDiscussion(Self.story)], "C on the \(name)")
        }
    }

    /// An Ask HN or a self post has no link of its own: `o` opens its discussion page, on every screen
    /// that shows it, and opening it is seeing it. A feed that names no comments still says "no link".
    @Test func oOnAStoryWithoutALinkOpensItsDiscussion() {
        let ask = Fixture.item("Ask HN: what do you read?", fields: ["id": .number("2")])
        var state = Fixture.state(showing: Fixture.page(1, items: [ask]), size: Size(width: 50, height: 10))
        var plain = state
        state.feed.commentsAvailable = true
        state.send(.seenLoaded([]))
        var item = state
        #expect(state.press("o") == [.openDiscussion(ask), .mark([ask], seen: true)])
        #expect(state.toasts.isEmpty)
        item.press(.enter)
        #expect(item.press("o") == [.openDiscussion(ask)])
        #expect(plain.press("o") == [] && plain.toasts.map(\.message) == ["no link"])
    }

    @Test func mMarksTheItemOnTheScreenItIsShownOn() {
        // Given the story opened (Enter is seeing it)
        var state = Self.listState()
        state.press(.enter)
        #expect(state.isSeen(0) == true)
        // When m is pressed on the item screen, it is unseen again; again, seen
        #expect(state.press("m") == [.mark([Self.story], seen: false)])
        #expect(state.isSeen(0) == false)
        #expect(state.press("m") == [.mark([Self.story], seen: true)])
        // And o on it opens the link without marking it twice
        #expect(state.press("o") == [.open(URL(string: "https://example.com/x")!)])
    }

    @Test func cOnTheCommentsScreenOpensNoSecondOne() {
        var state = Self.listState()
        state.press("c")
        let before = state
        #expect(state.press("c") == [] && state == before)
        state.press("q")
        #expect(state.screens.shown == .list)
    }

    @Test func aSearchResultOfAnotherFeedIsOpenedAndCopiedButNeitherMarkedNorCommented() {
        // Given search results over the list
        var state = Self.listState()
        state.press("S")
        for character in "swift" { state.press(.character(character)) }
        state.press(.enter)
        state.send(.searched(query: "swift", [Self.match]))
        // Then o opens and y copies, and nothing is marked seen in the open feed
        #expect(state.press("o") == [.open(URL(string: "https://example.com/s")!)])
        #expect(state.press("y") == [.copy("https://example.com/s", what: "link")])
        let before = state
        for key: Character in ["m", "C"] { #expect(state.press(key) == [], "\(key) on a search result") }
        // (only toasts say where they work: in the item's feed)
        #expect(state.list == before.list && state.feed == before.feed && state.screens == before.screens)
        #expect(state.toasts.map(\.message) == ["seen marks", "discussion pages"].map {
            "\($0) go through the item's feed: open it there (a saved item: c, a search result: Enter)"
        })
        // (c would open it in its feed, which the log cannot open again: it says so)
        #expect(state.press("c") == [] && state.toasts.last?.message.hasPrefix("no comments: riffle does not know how to open lobsters") == true)
        // And Enter shows it without marking it either
        #expect(state.press(.enter) == [])
        #expect(state.detail?.item.title == "Swift on Linux" && state.press("m") == [])
    }

    @Test func escAndQGoBackOneScreenAtATimeAndOverlaysCloseFirst() {
        // Given the list, the story over it, its comments over that, and the help over those
        var state = Self.listState()
        state.press(.enter)
        state.press("c")
        state.send(.commentsLoaded(item: Self.story.readingKey, Self.thread))
        state.press("?")
        #expect(state.screens.entries.count == 4 && state.screens.overlay == .help(scroll: 0))
        #expect(state.comments != nil, "the comments are shown under the help")
        // When Esc is pressed four times, each closes one thing; q on the list then quits
        state.press(.escape)
        #expect(state.screens.overlay == nil && state.comments != nil)
        state.press(.escape)
        #expect(state.detail != nil)
        state.press(.escape)
        #expect(state.screens.shown == .list && state.screens.entries.count == 1)
        #expect(state.press(.escape) == [] && !state.shouldQuit)
        #expect(state.press("q") == [.quit])
    }

    @Test func searchFromAnItemStacksOverItAndComesBackToIt() {
        var state = Self.listState()
        state.press(.enter)
        state.press("S")
        state.press("x")
        #expect(state.press(.enter) == [.search("x", order: .newest)])
        #expect(state.screens.entries == [.list, .item(ItemScreen(item: Self.story)), .search(SearchScreen(query: "x"))])
        state.press("q")
        #expect(state.detail?.item == Self.story)
    }

    @Test func aToastShowsOnEveryScreenAtTheBottomOfItsBody() {
        let search = {
            var state = Self.listState()
            state.press("S")
            state.press("x")
            state.press(.enter)
            return state
        }()
        let feeds = {
            var state = Self.listState()
            state.press("F")
            return state
        }()
        for (name, state) in Self.storyScreens() + [("search", search), ("feeds", feeds)] {
            var state = state
            state.send(.notice("something happened"))
            let lines = App.view(state).trimmedLines
            #expect(lines[8].hasSuffix("   something happened") && App.view(state)[49, 8].style.role == .toast, "the toast on the \(name)")
        }
    }

    @Test func theStateIsAFewPartsNotFortyProperties() {
        let state = Self.listState()
        #expect(Mirror(reflecting: state).children.count <= 12)
    }
}

@Suite("caches: the list's index and the screens' layouts are made once, and never stale")
struct CacheTests {
    @Test func afterEveryUpdateTheIndexAndTheShownLayoutAreMade() throws {
        // Given a list, an item, comments: after each action nothing is left to make for the frame
        var state = ScreenTests.listState()
        #expect(state.isSettled)
        for action: Action in [.event(.key(.character("j"))), .event(.key(.character("/"))), .event(.key(.character("o"))),
                               .event(.key(.enter)), .event(.key(.character("s"))), .event(.key(.character("m"))),
                               .event(.key(.character("g"))), .event(.key(.enter)), .event(.key(.character("v"))),
                               .event(.resize(Size(width: 30, height: 10))), .event(.key(.character("c"))),
                               .commentsLoaded(item: ScreenTests.story.readingKey, ScreenTests.thread), .event(.key(.enter)),
                               .tick(Fixture.now.addingTimeInterval(5))] {
            state.send(action)
            #expect(state.isSettled, "after \(action)")
        }
    }

    @Test func aResizeRewrapsTheItemAndItsStatusSaysSo() throws {
        // Given an item whose text takes one line at 60 columns
        let text = "Riffle pages through JSON feeds and keeps every page on disk."
        var state = Fixture.state(showing: Fixture.page(1, items: [Fixture.item("t", fields: ["text": .string(text)])]),
                                  size: Size(width: 80, height: 10))
        state.press(.enter)
        state.press("v")
        #expect(App.view(state).trimmedLines[1] == " text: Riffle pages through JSON feeds and keeps every page on disk.")
        #expect(App.view(state).trimmedLines[9] == " fields · top · v raw JSON")
        // When the terminal narrows, the text wraps to the new width
        state.send(.event(.resize(Size(width: 30, height: 10))))
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...3]) == [" text: Riffle pages through", "   JSON feeds and keeps every", "   page on disk."])
        #expect(lines[9].hasPrefix(" fields · top"))
    }

    @Test func aReloadedThreadIsLaidOutAfresh() {
        // Given the comments shown
        var state = ScreenTests.listState()
        state.press("c")
        state.send(.commentsLoaded(item: ScreenTests.story.readingKey, ScreenTests.thread))
        #expect(App.view(state).trimmedLines[5] == " first")
        // When r brings the thread back with a new comment, both show
        #expect(state.press("r") == [.loadComments(ScreenTests.story, policy: .reloadIgnoringCache)])
        let longer = CommentThread(comments: ScreenTests.thread.comments + [.init(depth: 0, author: "bob", text: "second", createdAt: nil)])
        state.send(.commentsLoaded(item: ScreenTests.story.readingKey, longer))
        #expect(Array(App.view(state).trimmedLines[4...8]) == [" ann", " first", "", " bob", " second"])
    }

    @Test func theIndexFollowsEveryChangeOfPagesFilterAndOrder() {
        var list = ListScreen()
        list.append(LoadedPage(Fixture.page(1, items: [Fixture.item("b", age: 10), Fixture.item("a", age: 5)])))
        #expect(list.items.map(\.title) == ["b", "a"])
        list.setSort(.newest)
        #expect(list.rows.map { list.items[$0].title } == ["a", "b"])
        list.setFilter(FilterState(query: "b", isEditing: false))
        #expect(list.rows.map { list.items[$0].title } == ["b"])
        list.replacePage(at: 0, with: LoadedPage(Fixture.page(1, items: [Fixture.item("bb")])))
        #expect(list.rows.map { list.items[$0].title } == ["bb"])
    }

    @Test func aCachedValueAnswersOnlyForTheKeyItWasMadeFor() {
        var cache = Cached<Int, String>()
        var made = 0
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 1) { made += 1; return "one" } == "one")
        #expect(cache.value(for: 1) { made += 1; return "again" } == "one" && made == 1)
        #expect(cache.value(for: 2) == nil)
        #expect(cache.value(for: 2) { made += 1; return "two" } == "two" && made == 2)
    }
}

@Suite("the reading log hears of every page shown, through an effect")
struct RecordTests {
    @Test func aPageThatJoinsTheListIsRecordedFirstAndADroppedOneIsNot() {
        // Given the first page asked for
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        // When it arrives, it is recorded before anything else it leads to
        let page = Fixture.page(1)
        #expect(state.send(.pageLoaded(page)) == [.record(page.items)])
        // And a reload's answer is recorded too (what it brought is searchable)
        state.press("r")
        let reloaded = Fixture.page(1, items: Fixture.items(3, page: 7))
        #expect(state.send(.pageLoaded(reloaded)) == [.record(reloaded.items)])
        // But an answer nobody waits for, and an empty last page, are not shown, so not recorded
        #expect(state.send(.pageLoaded(Fixture.page(5))) == [])
        state.press("n")
        #expect(state.send(.pageLoaded(Fixture.page(2, items: []))) == [])
    }

    @Test func aNewerCopyOfAPageOnScreenIsRecordedAndTheSameCachedCopyIsNot() {
        // Given page 1 shown from the cache (the first frame), its load still running
        var state = AppState(feedTitle: "demo", size: Fixture.size, now: Fixture.now)
        state.send(.start)
        state.send(.pageLoaded(Fixture.page(1, source: .cache)))
        // When the load answers with the same cached page, nothing new is shown
        #expect(state.send(.pageLoaded(Fixture.page(1, source: .cache))) == [])
        // When it answers with a revalidated copy, that copy is shown, and recorded
        let fresh = Fixture.page(1, items: Fixture.items(4, page: 8), source: .revalidated)
        #expect(state.send(.pageLoaded(fresh)) == [.record(fresh.items)])
        #expect(state.list.items.map(\.title).first == "p8 item 1")
    }
}

@Suite("RiffleTUI is no product: nothing in it, the run loop or the ncurses backend is public")
struct AccessTests {
    @Test func noDeclarationIsPublic() throws {
        let sources = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Sources").standardized
        var found: [String] = []
        for module in ["RiffleTUI", "RiffleBrowser", "NcursesTerminal"] {
            let folder = sources.appending(path: module)
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).split(separator: " ").contains("public") {
                    if !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { found.append("\(file.lastPathComponent):\(number + 1)") }
                }
            }
        }
        #expect(found.isEmpty, "public declarations: \(found)")
    }
}
