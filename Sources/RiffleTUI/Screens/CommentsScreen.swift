import Foundation
import RiffleKit

/// One item's comments as a tree (`c`): j and k move from comment to comment, Enter folds a
/// comment's replies away, r reloads the thread. The item commands act on the story.
///
/// The tree is laid out once for a width and kept (`Cached`) until the width, the folds or the
/// thread change: moving, and every frame, reuse it.
package struct CommentsScreen: Sendable, Equatable {
    /// The item whose discussion this is.
    package let item: Item
    /// The thread; nil while it loads.
    package private(set) var thread: CommentThread?
    /// Why it could not be loaded.
    package var failure: String?
    /// Comments (indices into `thread.comments`) whose replies are folded away.
    package private(set) var folded: Set<Int> = []
    /// The selected comment (an index into `thread.comments`, always a shown one).
    package var selection = 0
    /// The first line drawn.
    package var scroll = 0
    /// Bumped when the thread changes: the layout is keyed by it.
    private var revision = Revision()
    private var cache = Cached<LayoutKey, CommentTreeView.Layout>()

    private struct LayoutKey: Sendable, Equatable {
        var width: Int
        var thread: Int
        var folded: Set<Int>
    }

    /// The comments of `item`, loading.
    package init(item: Item) { self.item = item }

    /// Whether the thread is still on its way (the spinner turns).
    package var isWaiting: Bool { thread == nil && failure == nil }

    private func layoutKey(_ size: Size) -> LayoutKey {
        LayoutKey(width: size.width - 2, thread: revision.count, folded: folded)
    }

    /// The tree at the width of a screen of `size`: the one kept when it is for it.
    func layout(for size: Size) -> CommentTreeView.Layout {
        let key = layoutKey(size)
        if let layout = cache.value(for: key) { return layout }
        guard let thread else { return CommentTreeView.Layout() }
        return CommentTreeView.layout(thread, folded: folded, width: key.width)
    }

    /// Takes a thread that arrived, keeping the place in a reloaded one when it still has it.
    mutating func receive(_ thread: CommentThread) {
        let reloaded = self.thread != nil
        self.thread = thread
        revision.bump()
        failure = nil
        if !reloaded || selection >= thread.comments.count {
            folded = []
            selection = 0
            scroll = 0
        }
    }

    /// Folds the selected comment's replies away, or brings them back.
    mutating func toggleFold() {
        guard let thread, thread.comments.indices.contains(selection), thread.comments[selection].descendants > 0 else { return }
        if folded.remove(selection) == nil { folded.insert(selection) }
    }

    /// Scrolls so the selected comment's first line is in view (and as much of it as fits).
    mutating func showSelection(size: Size) {
        let layout = layout(for: size)
        let rows = max(1, App.listRows(for: size))
        if let start = layout.starts[selection] {
            let end = layout.ends[selection] ?? start
            if start < scroll { scroll = start }
            if end >= scroll + rows { scroll = min(start, end - rows + 1) }
        }
        scroll = max(0, min(scroll, max(0, layout.lines.count - rows)))
    }

    /// Scrolls by `delta` lines and selects the first comment that starts in view (or the one the
    /// top line belongs to).
    mutating func scroll(by delta: Int, size: Size) {
        let layout = layout(for: size)
        let rows = max(1, App.listRows(for: size))
        scroll = max(0, min(max(0, layout.lines.count - rows), scroll + delta))
        let inView = layout.starts.filter { $0.value >= scroll && $0.value < scroll + rows }
        if let first = inView.min(by: { $0.value < $1.value }) {
            selection = first.key
        } else if let owner = layout.starts.filter({ $0.value <= scroll }).max(by: { $0.value < $1.value }) {
            selection = owner.key
        }
    }

    /// A thread (or why there is none) for the comments screen, when it is shown for that item.
    static func receive(_ result: Result<CommentThread, FeedError>, forItem key: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: CommentsScreen.self), screen.item.readingKey == key else { return }
        switch result {
        case .success(let thread):
            screen.receive(thread)
        case .failure(let error):
            if screen.thread == nil { screen.failure = "\(error)" }
            App.raise(&state, "comments: \(error)")
        }
        screen.settle(size: state.size)
        screen.showSelection(size: state.size)
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
        guard let thread else { return }
        let (folded, key) = (folded, layoutKey(size))
        cache.value(for: key) { CommentTreeView.layout(thread, folded: folded, width: key.width) }
    }

    func isSettled(size: Size) -> Bool { thread == nil || cache.value(for: layoutKey(size)) != nil }

    mutating func resized(to size: Size) { showSelection(size: size) }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: CommentsScreen.self) else { return nil }
        let size = state.size
        let rows = max(1, App.listRows(for: size))
        let shown = screen.layout(for: size).shown
        let position = shown.firstIndex(of: screen.selection) ?? 0
        switch command {
        case .down: screen.selection = shown[safe: position + 1] ?? screen.selection
        case .up: screen.selection = shown[safe: position - 1] ?? screen.selection
        case .first: screen.selection = shown.first ?? 0
        case .last: screen.selection = shown.last ?? 0
        case .pageDown, .pageUp, .halfDown, .halfUp:
            let step = command == .pageDown || command == .pageUp ? rows : max(1, rows / 2)
            let down = command == .pageDown || command == .halfDown
            screen.scroll(by: down ? step : -step, size: size)
            state.screens.shown = .comments(screen)
            return []
        case .open:
            // Enter folds a comment's replies away, or brings them back.
            screen.toggleFold()
            screen.settle(size: size)
        case .reload:
            screen.failure = nil
            state.screens.shown = .comments(screen)
            return [.loadComments(screen.item, policy: .reloadIgnoringCache)]
        case .comments:
            // c: these are the comments already.
            return []
        default:
            return nil
        }
        screen.showSelection(size: size)
        state.screens.shown = .comments(screen)
        return []
    }

    // MARK: View

    /// The item's title, the tree, and where the reader is in it.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: Sanitizer.clean(item.title), hint: "q back").render(into: &buffer, area: area)
        let list = App.listArea(for: state.size)
        var facts: [String]
        if let thread {
            let layout = layout(for: state.size)
            if thread.comments.isEmpty {
                Centered(text: "no comments yet", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            } else {
                CommentTreeView(layout: layout, selection: selection, scroll: scroll, now: state.now).render(into: &buffer, area: list)
            }
            let count = thread.comments.filter { $0.more == nil }.count
            facts = [count == 1 ? "1 comment" : "\(count) comments"]
            if !thread.comments.isEmpty {
                facts.insert("comment \(selection + 1)/\(thread.comments.count)", at: 0)
                let last = min(layout.lines.count, scroll + list.height)
                facts.append("lines \(min(layout.lines.count, scroll + 1))-\(last) of \(layout.lines.count)")
            }
            facts.append("Enter folds · C page")
        } else if let failure {
            Centered(text: "\(failure)\n\nr to retry", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            facts = ["comments"]
        } else {
            Centered(text: "loading comments…", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            facts = ["comments"]
        }
        let activity = isWaiting ? "loading comments" : nil
        StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: [facts.count - 1, 0])
            .render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}

extension Array {
    /// The element at `index`, or nil when there is none.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
