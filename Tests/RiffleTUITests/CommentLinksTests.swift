import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("a comment's links, permalink and styled text")
struct CommentLinksTests {
    static let story = Fixture.item("Show HN: x", url: "https://story.example/x")
    static let discussion = URL(string: "https://news.ycombinator.com/item?id=1")

    /// A comment read from `html` as a thread reads it, with the permalink HN's preset gives.
    static func comment(_ html: String, depth: Int = 0, author: String, id: String) -> CommentThread.Comment {
        let marked = MarkedText(html: html, base: discussion)
        return .init(depth: depth, author: author, text: marked.text, createdAt: nil, id: id, marks: marked.marks, links: marked.links,
                     permalink: URL(string: "https://news.ycombinator.com/item?id=\(id)"))
    }

    static let thread = CommentThread(comments: [
        comment("<p>No links here, <i>just</i> words.</p>", author: "ann", id: "11"),
        comment(#"<p>Read <a href="https://one.example/a">this</a>.</p>"#, depth: 1, author: "bob", id: "12"),
        comment(#"<p>Compare <a href="https://one.example/a" rel="nofollow">https://one.example/a</a> with <a href="item?id=7">the old thread</a>.</p>"#,
                author: "cy", id: "13"),
    ])

    static func state(_ thread: CommentThread = thread, size: Size = Size(width: 60, height: 24)) -> AppState {
        var state = AppState(feedTitle: "hn", size: size, now: Fixture.now)
        _ = App.update(&state, .start)
        _ = App.update(&state, .pageLoaded(Fixture.page(1, items: [story])))
        state.feed.commentsAvailable = true
        state.press("c")
        state.send(.commentsLoaded(item: story.readingKey, thread))
        return state
    }

    /// The row of the frame holding `text`, and the column where it starts.
    static func find(_ text: String, in buffer: Buffer) -> (x: Int, y: Int)? {
        for (y, line) in buffer.lines.enumerated() {
            if let range = line.range(of: text) { return (line.distance(from: line.startIndex, to: range.lowerBound), y) }
        }
        return nil
    }

    var menu: (AppState) -> LinkMenu? = { state in if case .links(let menu) = state.screens.overlay { menu } else { nil } }

    @Test func linksAreNumberedDimWhereTheyStand() throws {
        let buffer = App.view(Self.state())
        let lines = buffer.trimmedLines
        #expect(lines.contains(" │ Read this [1]."))
        #expect(lines.contains(" Compare https://one.example/a [1] with the old thread [2]."))
        let number = try #require(Self.find("[2]", in: buffer))
        #expect(buffer[number.x, number.y].style.dim && buffer[number.x + 1, number.y].style.role == .dim)
        let word = try #require(Self.find("thread", in: buffer))
        #expect(!buffer[word.x, word.y].style.dim, "the link's text is not dimmed")
    }

    @Test func oOpensACommentsOnlyLinkAndTheStorysWhenItHasNone() {
        var state = Self.state()
        // On a comment without links, o opens the story's link, as everywhere
        #expect(state.press("o").first == .open(URL(string: "https://story.example/x")!))
        state.press("j")
        #expect(state.press("o") == [.open(URL(string: "https://one.example/a")!)])
        #expect(menu(state) == nil)
        #expect(App.view(state).trimmedLines.last?.contains("o its link") == true)
    }

    @Test func oOnACommentWithSeveralLinksListsThemAndADigitOpensOne() throws {
        var state = Self.state()
        state.press("j")
        state.press("j")
        #expect(App.view(state).trimmedLines.last?.contains("o its 2 links") == true)
        // When o is pressed, a menu lists the two links numbered as in the text
        #expect(state.press("o") == [])
        #expect(menu(state)?.links.count == 2)
        let lines = App.view(state).trimmedLines
        #expect(lines.contains { $0.contains("[1] https://one.example/a") })
        #expect(lines.contains { $0.contains("[2] https://news.ycombinator.com/item?id=7") }, "resolved against the discussion page")
        // Then 2 opens the second, through the same effect as an item's link, and closes the menu
        #expect(state.press("2") == [.open(URL(string: "https://news.ycombinator.com/item?id=7")!)])
        #expect(menu(state) == nil)
        // And j then Enter does too; y copies; Esc closes with nothing
        state.press("o")
        state.press("j")
        #expect(state.press(.enter) == [.open(URL(string: "https://news.ycombinator.com/item?id=7")!)])
        state.press("o")
        #expect(state.press("y") == [.copy("https://one.example/a", what: "link")])
        state.press("o")
        #expect(state.press("3") == [] && state.toasts.last?.message == "no link [3]: this comment has 2")
        #expect(state.press(.escape) == [] && menu(state) == nil)
        #expect(state.comments != nil, "Esc closed the menu, not the comments")
    }

    @Test func YCopiesTheSelectedCommentsPermalink() {
        var state = Self.state()
        state.press("j")
        #expect(state.press("Y") == [.copy("https://news.ycombinator.com/item?id=12", what: "permalink")])
        // A feed whose comments name no permalink says so
        var bare = Self.state(CommentThread(comments: [.init(depth: 0, author: "ann", text: "hi", createdAt: nil)]))
        #expect(bare.press("Y") == [])
        #expect(bare.toasts.last?.message == #"no permalink: this feed's "comments" name none (a "permalink" template)"#)
    }

    @Test func italicsAreSlantedCodeHasItsRoleAndPreformattedLinesKeepTheirShape() throws {
        let html = "<p>I <i>really</i> like <code>jq</code>:</p><pre><code>  a  =  1\n  bb = 22\n</code></pre><p>&gt; quoted</p>"
        let buffer = App.view(Self.state(CommentThread(comments: [Self.comment(html, author: "ann", id: "1")])))
        let lines = buffer.trimmedLines
        #expect(lines.contains(" I really like jq:"))
        #expect(lines.contains("   a  =  1") && lines.contains("   bb = 22"), "\(buffer)")
        let really = try #require(Self.find("really", in: buffer))
        #expect((0..<6).allSatisfy { buffer[really.x + $0, really.y].style.italic })
        #expect(!buffer[really.x - 2, really.y].style.italic && !buffer[really.x + 6, really.y].style.italic)
        let jq = try #require(Self.find("jq:", in: buffer))
        #expect(buffer[jq.x, jq.y].style.role == .code && buffer[jq.x + 1, jq.y].style.role == .code)
        #expect(buffer[jq.x + 2, jq.y].style.role == .normal)
        let pre = try #require(Self.find("bb = 22", in: buffer))
        #expect(buffer[pre.x, pre.y].style.role == .code && buffer[pre.x + 6, pre.y].style.role == .code)
        let quote = try #require(Self.find("> quoted", in: buffer))
        #expect(buffer[quote.x + 2, quote.y].style.dim)
    }

    @Test func aLongPreformattedLineWrapsAtTheWidthWithoutJoiningTheNext() {
        var settings = Settings()
        settings.textWidth = 20
        let html = "<pre><code>let total = items.reduce(0, +)\nprint(total)</code></pre>"
        var state = AppState(feedTitle: "hn", size: Size(width: 80, height: 24), now: Fixture.now, settings: settings)
        _ = App.update(&state, .start)
        _ = App.update(&state, .pageLoaded(Fixture.page(1, items: [Self.story])))
        state.feed.commentsAvailable = true
        state.press("c")
        state.send(.commentsLoaded(item: Self.story.readingKey, CommentThread(comments: [Self.comment(html, author: "ann", id: "1")])))
        let lines = App.view(state).trimmedLines
        let at = lines.firstIndex(of: " ann") ?? 0
        #expect(Array(lines[(at + 1)...(at + 3)]) == [" let total =", " items.reduce(0, +)", " print(total)"])
    }

    @Test func theHelpNamesTheCommentKeys() {
        let help = HelpOverlay()
        #expect(help.bindings.contains { $0.label == "o" && $0.action == "open the link (comment: its links)" })
        #expect(help.bindings.contains { $0.label == "y Y" && $0.action == "copy link / JSON; comment: permalink" })
    }
}
