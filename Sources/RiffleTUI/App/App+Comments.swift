import Foundation
import RiffleKit

extension App {
    /// `c`: the item's comments, for a feed that says where they are; opening them is seeing the item.
    static func openComments(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item else { return [] }
        guard state.commentsAvailable else {
            raise(&state, "no comments: this feed does not say where they are (a \"comments\" field in feeds.json)")
            return []
        }
        let seen = state.mode == .list ? markSeen(&state, [item]) : []
        state.back.append(state.mode)
        state.mode = .comments(CommentsState(item: item))
        return [.loadComments(item, policy: .returnCacheElseLoad)] + seen
    }

    /// `C`: the item's discussion page in the browser.
    static func openDiscussion(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item else { return [] }
        guard state.commentsAvailable else {
            raise(&state, "no discussion page: this feed does not say where comments are")
            return []
        }
        return [.openDiscussion(item)]
    }

    /// A thread (or why there is none) for the comments screen, when it still shows that item.
    static func receiveComments(_ state: inout AppState, key: String, _ result: Result<CommentThread, FeedError>) {
        guard case .comments(var comments) = state.mode, comments.item.readingKey == key else { return }
        switch result {
        case .success(let thread):
            let reloaded = comments.thread != nil
            comments.thread = thread
            comments.failure = nil
            if !reloaded || comments.selection >= thread.comments.count {
                comments.folded = []
                comments.selection = 0
                comments.scroll = 0
            }
        case .failure(let error):
            if comments.thread == nil { comments.failure = "\(error)" }
            raise(&state, "comments: \(error)")
        }
        showComments(&state, comments)
    }

    static func pressInComments(_ state: inout AppState, _ comments: CommentsState, _ key: Key) -> [Effect] {
        var comments = comments
        let rows = max(1, listRows(for: state.size))
        let shown = comments.shown
        let position = shown.firstIndex(of: comments.selection) ?? 0
        guard let command = state.keymap.command(for: key) else { return [] }
        switch command {
        case .back, .quit:
            return leave(&state)
        case .down: comments.selection = shown[safe: position + 1] ?? comments.selection
        case .up: comments.selection = shown[safe: position - 1] ?? comments.selection
        case .first: comments.selection = shown.first ?? 0
        case .last: comments.selection = shown.last ?? 0
        case .pageDown, .pageUp, .halfDown, .halfUp:
            let step = command == .pageDown || command == .pageUp ? rows : max(1, rows / 2)
            let down = command == .pageDown || command == .halfDown
            return scrollComments(&state, comments, by: down ? step : -step)
        case .open:
            // Enter folds a comment's replies away, or brings them back.
            guard let thread = comments.thread, thread.comments.indices.contains(comments.selection),
                  thread.comments[comments.selection].descendants > 0 else { return [] }
            if comments.folded.remove(comments.selection) == nil { comments.folded.insert(comments.selection) }
        case .reload:
            comments.failure = nil
            state.mode = .comments(comments)
            return [.loadComments(comments.item, policy: .reloadIgnoringCache)]
        case .openLink: return openLink(&state, comments.item)
        case .discussion: return openDiscussion(&state, comments.item)
        case .yankLink: return yankLink(&state, comments.item)
        case .help: state.overlay = .help(scroll: 0)
        case .log: state.overlay = .log
        default: return []
        }
        showComments(&state, comments)
        return []
    }

    /// Scrolls by `delta` lines and selects the first comment that starts in view (or the one the
    /// top line belongs to).
    static func scrollComments(_ state: inout AppState, _ comments: CommentsState, by delta: Int) -> [Effect] {
        var comments = comments
        let layout = CommentTreeView.layout(comments, width: state.size.width - 2)
        let rows = max(1, listRows(for: state.size))
        comments.scroll = max(0, min(max(0, layout.lines.count - rows), comments.scroll + delta))
        let inView = layout.starts.filter { $0.value >= comments.scroll && $0.value < comments.scroll + rows }
        if let first = inView.min(by: { $0.value < $1.value }) {
            comments.selection = first.key
        } else if let owner = layout.starts.filter({ $0.value <= comments.scroll }).max(by: { $0.value < $1.value }) {
            comments.selection = owner.key
        }
        state.mode = .comments(comments)
        return []
    }

    /// Shows `comments`, scrolled so the selected comment's first line is in view (and as much of it
    /// as fits).
    static func showComments(_ state: inout AppState, _ comments: CommentsState) {
        var comments = comments
        let layout = CommentTreeView.layout(comments, width: state.size.width - 2)
        let rows = max(1, listRows(for: state.size))
        if let start = layout.starts[comments.selection] {
            let end = layout.ends[comments.selection] ?? start
            if start < comments.scroll { comments.scroll = start }
            if end >= comments.scroll + rows { comments.scroll = min(start, end - rows + 1) }
        }
        comments.scroll = max(0, min(comments.scroll, max(0, layout.lines.count - rows)))
        state.mode = .comments(comments)
    }
}

extension Array {
    /// The element at `index`, or nil when there is none.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
