import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("comments made for reading")
struct CommentReadingTests {
    /// An Ask HN by pg with its own text.
    static let story: Item = {
        var item = Item(id: "1", title: "Ask HN: x?", details: ["pg"], url: nil, createdAt: nil,
                        fields: .object(JSONObject([("title", .string("Ask HN: x?")), ("story_text", .string("<p>What do you <i>read</i>?</p>"))])))
        item.author = "pg"
        return item
    }()

    static let thread = CommentThread(comments: [
        .init(depth: 0, author: "ann", text: "one", createdAt: nil, id: "c1"),
        .init(depth: 1, author: "pg", text: "two", createdAt: nil, id: "c2"),
        .init(depth: 2, author: "mo", text: "three", createdAt: nil, id: "c3", isModerator: true),
        .init(depth: 0, author: "cy", text: "four", createdAt: nil, id: "c4"),
        .init(depth: 0, author: "di", text: "five", createdAt: nil, id: "c5"),
    ])

    static func state(_ thread: CommentThread = thread, size: Size = Size(width: 40, height: 24), settings: Settings = Settings()) -> AppState {
        var state = AppState(feedTitle: "hn", size: size, now: Fixture.now, settings: settings)
        _ = App.update(&state, .start)
        _ = App.update(&state, .pageLoaded(Fixture.page(1, items: [story])))
        state.feed.commentsAvailable = true
        state.press("c")
        state.send(.commentsLoaded(item: story.readingKey, thread))
        return state
    }

    @Test func theStoryTextComesFirstAndAuthorsAreLabelled() {
        let lines = App.view(Self.state()).trimmedLines
        #expect(Array(lines[1...13]) == [
            " Ask HN: x?",
            " by pg · 5 comments",
            "",
            " What do you read?",
            "",
            " ann",
            " one",
            "",
            " │ pg OP",
            " │ two",
            " │",
            " │ │ mo mod",
            " │ │ three",
        ])
    }

    @Test func guidesTakeAColourByDepthThatCycles() {
        let buffer = App.view(Self.state())
        // The reply's guide and the reply to it: two depths, two roles
        #expect(buffer[1, 9].symbol == "│" && buffer[1, 9].style.role == .depth1)
        #expect(buffer[3, 12].symbol == "│" && buffer[3, 12].style.role == .depth2)
        #expect(Style.Role.depth(6) == .depth1 && Style.Role.depth(7) == .depth2)
    }

    @Test func bracketsMoveFromOneTopLevelCommentToTheNext() {
        var state = Self.state()
        #expect(state.comments?.selection == 0)
        state.press("]")
        #expect(state.comments?.selection == 3)
        state.press("]")
        #expect(state.comments?.selection == 4)
        state.press("]")
        #expect(state.comments?.selection == 4, "no further than the last")
        state.press("[")
        state.press("[")
        #expect(state.comments?.selection == 0)
        // And j steps into a thread, k back out of it
        state.press("j")
        #expect(state.comments?.selection == 1)
    }

    @Test func textWrapsAtTheReadingWidthOnAWideTerminal() {
        var settings = Settings()
        settings.textWidth = 20
        let long = CommentThread(comments: [.init(depth: 0, author: "ann", text: "a comment long enough to wrap at twenty columns https://example.com/a/very/long/path/that/stays/whole", createdAt: nil)])
        let lines = App.view(Self.state(long, size: Size(width: 120, height: 20), settings: settings)).trimmedLines
        #expect(Array(lines[6...10]) == [" ann", " a comment long", " enough to wrap at", " twenty columns", " https://example.com/a/very/long/path/that/stays/whole"])
    }

    @Test func aMillionCommentsCostWhatFitsOnTheScreen() {
        // Given a thread of a million comments, nested five deep
        let comments = (0..<1_000_000).map { CommentThread.Comment(depth: $0 % 5, author: "u\($0 % 97)", text: "comment \($0) says something", createdAt: nil) }
        var state = Self.state(CommentThread(comments: comments), size: Size(width: 120, height: 40))
        let rows = 38
        // Then opening it laid out a screen or two, not the thread
        var made = state.comments!.laidOut.rowsMade
        #expect(made <= 4 * rows)
        #expect(App.view(state).trimmedLines.contains(" u0"))
        // And each key lays out what comes into view, at most a few screens
        for key: Key in [.character("j"), .character("j"), .pageDown, .character("]"), .character("G"), .character("k"),
                         .pageUp, .enter, .character("g"), .enter, .control("d")] {
            state.press(key)
            let now = state.comments!.laidOut.rowsMade
            #expect(now - made <= 6 * rows, "\(key) laid out \(now - made) rows")
            made = now
        }
        state.press("G")
        #expect(state.comments?.selection == 999_999)
        #expect(App.view(state).trimmedLines.contains { $0.contains("comment 999999 says") })
        // And frames and ticks lay out nothing
        made = state.comments!.laidOut.rowsMade
        _ = App.view(state)
        state.send(.tick(Fixture.now.addingTimeInterval(1)))
        #expect(state.comments!.laidOut.rowsMade == made)
        #expect(state.isSettled)
    }

    @Test func foldingTheFirstOfAMillionSkipsItsRepliesWithoutLayingThemOut() {
        let comments = [CommentThread.Comment(depth: 0, author: "root", text: "root", createdAt: nil)]
            + (1..<1_000_000).map { CommentThread.Comment(depth: 1, author: "u", text: "reply \($0)", createdAt: nil) }
            + [CommentThread.Comment(depth: 0, author: "last", text: "the end", createdAt: nil)]
        var state = Self.state(CommentThread(comments: comments), size: Size(width: 80, height: 20))
        state.press(.enter)
        state.press("j")
        #expect(state.comments?.selection == 1_000_000)
        #expect(App.view(state).trimmedLines.contains(" root · [+999999] replies folded"))
        state.press("k")
        #expect(state.comments?.selection == 0)
    }

    @Test func commentsWrittenSinceTheLastVisitAreMarkedCountedAndJumpedTo() {
        // Given a thread whose comments were written over an hour
        let t0 = Fixture.now.addingTimeInterval(-3600)
        let thread = CommentThread(comments: [
            .init(depth: 0, author: "ann", text: "old", createdAt: t0),
            .init(depth: 1, author: "bob", text: "new reply", createdAt: t0.addingTimeInterval(600)),
            .init(depth: 0, author: "cy", text: "old too", createdAt: t0.addingTimeInterval(60)),
            .init(depth: 0, author: "di", text: "new too", createdAt: t0.addingTimeInterval(1200)),
        ])
        var state = AppState(feedTitle: "hn", size: Size(width: 40, height: 30), now: Fixture.now)
        _ = App.update(&state, .start)
        _ = App.update(&state, .pageLoaded(Fixture.page(1, items: [Self.story])))
        state.feed.commentsAvailable = true
        state.press("c")
        // When it arrives, the visit is noted with its newest comment's time
        #expect(state.send(.commentsLoaded(item: Self.story.readingKey, thread)) == [.noteDiscussion(Self.story, newest: t0.addingTimeInterval(1200))])
        #expect(state.press("u") == [] && state.toasts.last?.message == "no new comments since the last visit")
        // And the log says the last visit saw up to the third comment's time
        state.send(.discussionNoted(item: Self.story.readingKey, since: t0.addingTimeInterval(300)))
        // Then the two written after are marked and counted
        let lines = App.view(state).trimmedLines
        #expect(lines[2] == " by pg · 4 comments · 2 new comments")
        #expect(lines.contains { $0.hasPrefix(" │ bob new · ") })
        #expect(lines.contains { $0.hasPrefix(" di new · ") })
        #expect(lines.last?.contains("2 new") == true)
        // And u / U go from one to the next, skipping the old ones
        state.press("u")
        #expect(state.comments?.selection == 1)
        state.press("u")
        #expect(state.comments?.selection == 3)
        state.press("u")
        #expect(state.comments?.selection == 3 && state.toasts.last?.message == "no new comment below")
        state.press("U")
        #expect(state.comments?.selection == 1)
        // And a reload is not a new visit: it keeps what was new
        #expect(state.send(.commentsLoaded(item: Self.story.readingKey, thread)) == [])
        #expect(state.comments?.fresh == [1, 3])
    }
}
