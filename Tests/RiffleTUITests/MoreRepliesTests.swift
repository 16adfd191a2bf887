import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("\"more replies\" stubs load with Enter, in place")
struct MoreRepliesTests {
    /// ann, her reply by bo, a stub for 2 more replies to ann (expandable), then cy at the top.
    static let stubJSON: JSONValue = ["kind": "more", "data": ["count": 2, "children": ["r1", "r2"], "parent_id": "t1_a"]]
    static let thread = CommentThread(comments: [
        .init(depth: 0, author: "ann", text: "first", createdAt: nil, id: "a"),
        .init(depth: 1, author: "bo", text: "a reply", createdAt: nil, id: "b"),
        .init(depth: 1, author: nil, text: "", createdAt: nil, more: 2, stub: stubJSON),
        .init(depth: 0, author: "cy", text: "second thread", createdAt: nil, id: "c"),
    ])
    static let replies = CommentThread.Replies(comments: [
        .init(depth: 0, author: "dee", text: "late reply one", createdAt: nil, id: "r1"),
        .init(depth: 1, author: "eve", text: "an answer to dee", createdAt: nil, id: "r3"),
        .init(depth: 0, author: "fay", text: "late reply two", createdAt: nil, id: "r2"),
    ])

    static func state(_ thread: CommentThread = thread) -> AppState {
        CommentReadingTests.state(thread, size: Size(width: 60, height: 30))
    }

    static func row(_ state: AppState, containing text: String) -> String? {
        App.view(state).trimmedLines.first { $0.contains(text) }
    }

    @Test func enterOnAStubAsksForItsRepliesAndTheRowSaysTheyAreLoading() throws {
        var state = Self.state()
        #expect(Self.row(state, containing: "2 more replies (Enter loads them)") != nil)
        state.press("j")
        state.press("j")
        #expect(state.comments?.selection == 2)
        #expect(state.press(.enter) == [.expandStub(CommentReadingTests.story, thread: Self.thread, index: 2)])
        let row = try #require(Self.row(state, containing: "loading 2 more replies…"))
        #expect(Spinner.frames.contains { row.contains("\($0) loading 2 more replies…") }, "\(row)")
        #expect(state.isAnimating, "the spinner turns")
        // A second Enter while they load asks for nothing more.
        #expect(state.press(.enter) == [])
    }

    @Test func theRepliesTakeTheStubsPlaceAtItsDepthWithTheCursorOnTheFirst() throws {
        var state = Self.state()
        state.press("j")
        state.press("j")
        state.press(.enter)
        state.send(.repliesLoaded(item: CommentReadingTests.story.readingKey, index: 2, stub: Self.thread.comments[2], Self.replies))
        let screen = try #require(state.comments)
        #expect(screen.thread?.comments.map { "\($0.depth) \($0.author ?? "-")" } == ["0 ann", "1 bo", "1 dee", "2 eve", "1 fay", "0 cy"])
        #expect(screen.selection == 2 && screen.expanding.isEmpty)
        let lines = App.view(state).trimmedLines
        #expect(!lines.contains { $0.contains("more replies") })
        #expect(lines.contains { $0.contains("│ │ eve") }, "eve under dee, under ann: \(lines)")
        #expect(lines.last?.contains("comment 3/6") == true, "\(lines.last ?? "")")
        // Enter on the first reply now folds its own reply away.
        state.press(.enter)
        #expect(state.comments?.folded == [2])
    }

    @Test func aFailedLoadKeepsTheStubAndSaysWhatFailed() throws {
        var state = Self.state()
        state.press("j")
        state.press("j")
        state.press(.enter)
        state.send(.repliesFailed(item: CommentReadingTests.story.readingKey, index: 2, stub: Self.thread.comments[2],
                                  .request(.httpStatus(code: 429, excerpt: "Too Many Requests"))))
        #expect(state.comments?.thread == Self.thread && state.comments?.expanding.isEmpty == true)
        #expect(state.toasts.last?.message.hasPrefix("more replies: ") == true && state.toasts.last?.message.contains("429") == true,
                "\(state.toasts.last?.message ?? "")")
        #expect(Self.row(state, containing: "2 more replies (Enter loads them)") != nil)
        // Enter tries again.
        #expect(state.press(.enter) == [.expandStub(CommentReadingTests.story, thread: Self.thread, index: 2)])
    }

    @Test func repliesForAThreadThatChangedMeanwhileAreDropped() throws {
        var state = Self.state()
        state.press("j")
        state.press("j")
        state.press(.enter)
        var reloaded = Self.thread
        reloaded.comments.insert(.init(depth: 0, author: "zed", text: "new", createdAt: nil, id: "z"), at: 0)
        state.send(.commentsLoaded(item: CommentReadingTests.story.readingKey, CommentThread(comments: reloaded.comments)))
        state.send(.repliesLoaded(item: CommentReadingTests.story.readingKey, index: 2, stub: Self.thread.comments[2], Self.replies))
        #expect(state.comments?.thread?.comments.count == 5, "the reloaded thread, untouched")
    }

    @Test func aStubTheFeedCannotExpandSaysSoAndTheKeysSayWhatEnterDoes() throws {
        var plain = Self.thread
        plain.comments[2].stub = nil
        var state = Self.state(plain)
        #expect(Self.row(state, containing: "2 more replies (C opens the page)") != nil)
        state.press("j")
        state.press("j")
        #expect(state.press(.enter) == [])
        #expect(state.toasts.last?.message == "this feed does not say how to load more replies (C opens the page)")
        #expect(Command.open.summary.contains("load more"))
    }
}
