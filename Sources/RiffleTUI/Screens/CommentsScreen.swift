import Foundation
import RiffleKit

/// One item's comments, made for reading (`c`): the story's own text first, then each comment with
/// indent guides coloured by depth, its author (OP, mod), its text at the reading width. j and k move
/// from comment to comment, `]` and `[` from one top-level comment to the next, Enter folds a
/// comment's replies away (on a "more replies" stub it loads them, in its place), r reloads the
/// thread. The item commands act on the story.
///
/// Only the comments on screen are laid out (`BlockPager`, `CommentDocument`), kept while near and
/// made again when the width, the folds or the thread change: a thread of a million comments costs
/// what one screen of it costs, to open and at every key.
package struct CommentsScreen: Sendable, Equatable {
    /// The item whose discussion this is.
    package let item: Item
    /// The thread; nil while it loads.
    package private(set) var thread: CommentThread?
    /// Why it could not be loaded.
    package var failure: String?
    /// Comments (indices into `thread.comments`) whose replies are folded away.
    package private(set) var folded: Set<Int> = []
    /// Comments (indices) new since the last visit.
    package private(set) var fresh: Set<Int> = []
    /// "More replies" stubs (indices) whose replies are on their way.
    package private(set) var expanding: Set<Int> = []
    /// The newest comment's time at the last visit (from the reading log); nil before it answers,
    /// and on a first visit.
    package private(set) var since: Date?
    /// The selected comment (an index into `thread.comments`, always a shown one).
    package var selection = 0
    /// The first line drawn: a line of the story (block 0) or of a comment (block `i + 1`).
    package var top = PagePosition(block: 0, line: 0)
    /// The most columns a comment's text takes (config `text_width`).
    package let textWidth: Int
    /// Bumped when the thread or the folds change: the lines are keyed by it.
    private var revision = Revision()
    /// Comments that are not "more" stubs, counted when the thread came.
    private var commentCount = 0
    private let story: StoryParts
    /// The lines laid out near the screen.
    package private(set) var laidOut = BlockLines()

    /// The comments of `item`, loading.
    package init(item: Item, textWidth: Int = Settings().textWidth) {
        self.item = item
        self.textWidth = max(20, textWidth)
        story = StoryParts(item)
    }

    /// Whether the thread is still on its way (the spinner turns).
    package var isWaiting: Bool { thread == nil && failure == nil }

    var document: CommentDocument {
        CommentDocument(thread: thread ?? CommentThread(comments: []), folded: folded, story: story, storyAuthor: item.author,
                        textWidth: textWidth, fresh: fresh, commentCount: commentCount, expanding: expanding)
    }

    private func pager(_ size: Size) -> BlockPager<CommentDocument> {
        BlockPager(document, key: BlockLines.Key(width: size.width - 2, revision: revision.count), rows: App.listRows(for: size),
                   store: laidOut)
    }

    /// Takes a thread that arrived, keeping the place in a reloaded one when it still has it.
    /// - Parameter seen: the ids of the comments seen on the last visit; nil when there was none
    ///   (then nothing is new).
    @discardableResult
    mutating func receive(_ thread: CommentThread) -> [Effect] {
        let reloaded = self.thread != nil
        self.thread = thread
        revision.bump()
        failure = nil
        commentCount = thread.comments.reduce(0) { $0 + ($1.more == nil ? 1 : 0) }
        markFresh()
        expanding = []
        if !reloaded || selection >= thread.comments.count {
            folded = []
            selection = 0
            top = PagePosition(block: 0, line: 0)
        }
        // The first thread of a visit is the one the visit is noted with (a reload keeps what was new).
        guard !reloaded else { return [] }
        return [.noteDiscussion(item, newest: thread.comments.lazy.compactMap(\.createdAt).max())]
    }

    /// Learns what the last visit saw, and marks what came since.
    mutating func noted(since: Date?) {
        self.since = since
        markFresh()
        revision.bump()
    }

    /// The comments written after the last visit's newest.
    private mutating func markFresh() {
        guard let since, let thread else { return }
        fresh = Set(thread.comments.indices.lazy.filter { thread.comments[$0].createdAt.map { $0 > since } ?? false })
    }

    /// On a "more replies" stub, asks for its replies (once; a toast when the feed says no way);
    /// nil when the selection is not a stub.
    mutating func expandSelectedStub(in state: inout AppState) -> [Effect]? {
        guard let thread, let comment = thread.comments[safe: selection], comment.more != nil else { return nil }
        guard !expanding.contains(selection) else { return [] }
        guard comment.stub != nil else {
            App.raise(&state, "this feed does not say how to load more replies (C opens the page)")
            return []
        }
        expanding.insert(selection)
        revision.bump()
        return [.expandStub(item, thread: thread, index: selection)]
    }

    /// Puts the replies that came for the stub at `index` in its place: the selection goes to the
    /// first of them when it was on the stub, and everything after moves down with its folds.
    mutating func receive(_ replies: CommentThread.Replies, at index: Int) {
        guard let thread else { return }
        let delta = replies.comments.count - 1
        func moved(_ i: Int) -> Int { i > index ? i + delta : i }
        self.thread = thread.replacing(stub: index, with: replies)
        folded = Set(folded.filter { $0 != index }.map(moved))
        expanding = Set(expanding.filter { $0 != index }.map(moved))
        if selection > index { selection += delta }
        selection = min(selection, max(0, (self.thread?.comments.count ?? 1) - 1))
        if top.block > index + 1 { top.block += delta } else if top.block == index + 1 { top.line = 0 }
        commentCount = self.thread?.comments.reduce(0) { $0 + ($1.more == nil ? 1 : 0) } ?? 0
        markFresh()
        revision.bump()
    }

    /// The stub at `index` is not being loaded any more (its replies failed to come).
    mutating func stopExpanding(_ index: Int) {
        expanding.remove(index)
        revision.bump()
    }

    /// Folds the selected comment's replies away, or brings them back.
    mutating func toggleFold() {
        guard let thread, thread.comments.indices.contains(selection), thread.comments[selection].descendants > 0 else { return }
        if folded.remove(selection) == nil { folded.insert(selection) }
        revision.bump()
    }

    /// Scrolls so the selected comment's first line is in view (and as much of it as fits).
    mutating func showSelection(size: Size) {
        guard thread != nil else { return }
        var pager = pager(size)
        top = pager.revealing(selection + 1, from: top)
        top = min(top, pager.lastTop)
        laidOut = pager.store
    }

    /// Scrolls by `delta` lines and selects the first comment that starts in view (or the one the
    /// top line belongs to).
    mutating func scroll(by delta: Int, size: Size) {
        guard thread?.comments.isEmpty == false else { return }
        var pager = pager(size)
        top = pager.moved(top, by: delta)
        if let first = pager.blocksStarting(onScreenFrom: top).first(where: { $0 > 0 }) {
            selection = first - 1
        } else if top.block > 0 {
            selection = top.block - 1
        }
        laidOut = pager.store
    }

    /// The selected comment, once the thread is here; nil for a "more replies" stub.
    var selectedComment: CommentThread.Comment? {
        guard let comment = thread?.comments[safe: selection], comment.more == nil else { return nil }
        return comment
    }

    /// Selects `index` (a shown comment) and brings it into view.
    mutating func select(_ index: Int, size: Size) {
        selection = index
        showSelection(size: size)
    }

    /// The shown comment after or before the selection that `accepts`, if any: walks the shown
    /// comments (folded replies skipped).
    func shownComment(from index: Int, forward: Bool, where accepts: (CommentThread.Comment, Int) -> Bool) -> Int? {
        guard let thread else { return nil }
        let document = document
        var block: Int? = index + 1
        while let current = block {
            block = forward ? document.block(after: current) : document.block(before: current)
            guard let next = block, next > 0 else { return nil }
            if accepts(thread.comments[next - 1], next - 1) { return next - 1 }
        }
        return nil
    }

    /// A thread (or why there is none) for the comments screen, when it is shown for that item.
    static func receive(_ result: Result<CommentThread, FeedError>, forItem key: String, in state: inout AppState) -> [Effect] {
        guard var screen = state.screens.shown(as: CommentsScreen.self), screen.item.readingKey == key else { return [] }
        var effects: [Effect] = []
        switch result {
        case .success(let thread):
            effects = screen.receive(thread)
        case .failure(let error):
            if screen.thread == nil { screen.failure = "\(error)" }
            App.raise(&state, "comments: \(error)")
        }
        screen.settle(size: state.size)
        if screen.top.block > 0 { screen.showSelection(size: state.size) }
        state.screens.shown = .comments(screen)
        return effects
    }

    /// The replies of a stub (or why they did not come), for the comments screen when it is shown
    /// for that item and the stub is still where it was (a reload in between drops them).
    static func receive(_ result: Result<CommentThread.Replies, FeedError>, stub: CommentThread.Comment, at index: Int, forItem key: String,
                        in state: inout AppState) {
        guard var screen = state.screens.shown(as: CommentsScreen.self), screen.item.readingKey == key,
              screen.thread?.comments[safe: index] == stub, screen.expanding.contains(index) else { return }
        switch result {
        case .success(let replies):
            screen.receive(replies, at: index)
            if replies.comments.isEmpty { App.raise(&state, "no more replies: the site sent none") }
            screen.settle(size: state.size)
            screen.showSelection(size: state.size)
        case .failure(let error):
            screen.stopExpanding(index)
            App.raise(&state, "more replies: \(error)")
            screen.settle(size: state.size)
        }
        state.screens.shown = .comments(screen)
    }

    /// What the last visit saw, for the comments screen when it is shown for that item.
    static func noted(since: Date?, forItem key: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: CommentsScreen.self), screen.item.readingKey == key else { return }
        screen.noted(since: since)
        screen.settle(size: state.size)
        state.screens.shown = .comments(screen)
    }
}

extension CommentsScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .comments(let comments) = screen else { return nil }
        self = comments
    }

    var screen: Screen { .comments(self) }

    var itemSelection: ItemSelection? { ItemSelection(item: item, isInOpenFeed: true) }

    mutating func settle(size: Size) {
        guard thread != nil else { return }
        var pager = pager(size)
        _ = pager.screen(from: top)
        _ = pager.screen(from: pager.moved(top, by: pager.rows))
        pager.store.trim(around: top.block, limit: 4 * pager.rows + 64)
        laidOut = pager.store
    }

    func isSettled(size: Size) -> Bool {
        guard thread != nil else { return true }
        let key = BlockLines.Key(width: size.width - 2, revision: revision.count)
        return laidOut.fills(App.listRows(for: size), from: top, in: document, for: key)
    }

    mutating func resized(to size: Size) {
        top.line = 0
        showSelection(size: size)
    }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: CommentsScreen.self) else { return nil }
        let size = state.size
        let rows = max(1, App.listRows(for: size))
        let hasComments = screen.thread?.comments.isEmpty == false
        // Whether the selected comment is brought into view after the move (not when the move was to the story).
        var reveal = true
        switch command {
        case .down:
            if let next = screen.shownComment(from: screen.selection, forward: true, where: { _, _ in true }) { screen.selection = next }
        case .up:
            if let previous = screen.shownComment(from: screen.selection, forward: false, where: { _, _ in true }) {
                screen.selection = previous
            } else {
                // Above the first comment: the story.
                screen.top = PagePosition(block: 0, line: 0)
                reveal = false
            }
        case .nextThread, .previousThread:
            let forward = command == .nextThread
            if let found = screen.shownComment(from: screen.selection, forward: forward, where: { comment, _ in comment.depth == 0 }) {
                screen.selection = found
            } else if !forward {
                screen.selection = 0
                screen.top = PagePosition(block: 0, line: 0)
                reveal = false
            }
        case .nextUnseen, .previousNew:
            // u: in comments, the next comment new since the last visit; U the one before.
            let forward = command == .nextUnseen
            let fresh = screen.fresh
            if let found = screen.shownComment(from: screen.selection, forward: forward, where: { _, index in fresh.contains(index) }) {
                screen.selection = found
            } else {
                App.raise(&state, screen.fresh.isEmpty ? "no new comments since the last visit" : "no new comment \(forward ? "below" : "above")")
                reveal = false
            }
        case .first:
            screen.selection = 0
            screen.top = PagePosition(block: 0, line: 0)
            reveal = false
        case .last:
            guard hasComments else { break }
            var pager = screen.pager(size)
            screen.selection = (screen.document.lastBlock ?? 1) - 1
            screen.top = pager.lastTop
            screen.laidOut = pager.store
            reveal = false
        case .pageDown, .pageUp, .halfDown, .halfUp:
            let step = command == .pageDown || command == .pageUp ? rows : max(1, rows / 2)
            let down = command == .pageDown || command == .halfDown
            screen.scroll(by: down ? step : -step, size: size)
            screen.settle(size: size)
            state.screens.shown = .comments(screen)
            return []
        case .open:
            // Enter on a "more replies" stub loads them; on a comment it folds its replies away, or brings them back.
            if let effects = screen.expandSelectedStub(in: &state) {
                screen.settle(size: size)
                state.screens.shown = .comments(screen)
                return effects
            }
            screen.toggleFold()
        case .reload:
            screen.failure = nil
            state.screens.shown = .comments(screen)
            return [.loadComments(screen.item, policy: .reloadIgnoringCache)]
        case .comments:
            // c: these are the comments already.
            return []
        case .openLink:
            // o: the selected comment's link, or a menu of its links; the story's link when it has none.
            guard let links = screen.selectedComment?.links, !links.isEmpty else { return nil }
            guard links.count > 1 else { return [.open(LinkMenu.inert(links[0]))] }
            state.screens.push(.overlay(.links(LinkMenu(links: links))))
            return []
        case .yankJSON:
            // Y: the selected comment's permalink.
            guard let thread = screen.thread, let comment = screen.selectedComment else { return nil }
            guard let permalink = comment.permalink else {
                App.raise(&state, thread.comments.allSatisfy { $0.permalink == nil }
                          ? "no permalink: this feed's \"comments\" name none (a \"permalink\" template)"
                          : "no permalink for this comment")
                return []
            }
            return [.copy(LinkMenu.inert(permalink).absoluteString, what: "permalink")]
        default:
            return nil
        }
        if hasComments, reveal { screen.showSelection(size: size) }
        screen.settle(size: size)
        state.screens.shown = .comments(screen)
        return []
    }

    // MARK: View

    /// The item's title, the story and the comments, and where the reader is in them.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: item.title, hint: "q back").render(into: &buffer, area: area)
        let list = App.listArea(for: state.size)
        var facts: [String]
        if let thread {
            var pager = pager(state.size)
            let shown = pager.screen(from: top)
            let document = document
            CommentTreeView(shown: shown, document: document, selection: thread.comments.isEmpty ? -1 : selection, now: state.now,
                            spinnerFrame: state.spinnerFrame)
                .render(into: &buffer, area: list)
            if thread.comments.isEmpty, shown.count < list.height {
                Centered(text: "no comments yet", style: Style(.placeholder, dim: true), margin: 1)
                    .render(into: &buffer, area: Rect(x: list.x, y: list.y + shown.count, width: list.width, height: list.height - shown.count))
            }
            facts = [commentCount == 1 ? "1 comment" : "\(commentCount) comments"]
            if !thread.comments.isEmpty { facts.insert("comment \(selection + 1)/\(thread.comments.count)", at: 0) }
            if !fresh.isEmpty { facts.append(fresh.count == 1 ? "1 new" : "\(fresh.count) new") }
            let links = selectedComment?.links.count ?? 0
            if links > 0 { facts.append(links == 1 ? "o its link" : "o its \(links) links") }
            facts.append(thread.comments[safe: selection]?.stub != nil ? "Enter loads them · C page" : "Enter folds · C page")
        } else if let failure {
            Centered(text: "\(failure)\n\nr to retry", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            facts = ["comments"]
        } else {
            Centered(text: "loading comments…", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            facts = ["comments"]
        }
        let activity = isWaiting ? "loading comments" : expanding.isEmpty ? nil : "loading more replies"
        // The keys' hint goes first when space is short, then the links' count, then the position.
        let linksHint = facts.firstIndex { $0.hasPrefix("o its") }
        StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: [facts.count - 1] + (linksHint.map { [$0] } ?? []) + [0])
            .render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}

extension Array {
    /// The element at `index`, or nil when there is none.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
