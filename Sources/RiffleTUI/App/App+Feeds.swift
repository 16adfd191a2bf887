import Foundation
import RiffleKit

extension App {
    /// `F`: the feed list, over the feed being read (Esc comes back to it).
    static func showFeeds(_ state: inout AppState) -> [Effect] {
        state.back = [state.mode]
        state.mode = .feeds(FeedListState())
        state.filter = state.filter?.isEditing == true ? nil : state.filter
        return [.listFeeds]
    }

    /// The feeds to list have come: shown at once, their counts as they come.
    static func listFeeds(_ state: inout AppState, _ entries: [FeedEntry]) {
        guard case .feeds(var list) = state.mode else { return }
        let selected = list.selectedEntry?.name
        list.entries = entries
        list.selection = selected.flatMap { name in entries.firstIndex { $0.name == name } } ?? 0
        state.mode = .feeds(list)
        showFeedList(&state, list)
    }

    static func summarizeFeed(_ state: inout AppState, name: String, _ summary: FeedSummary) {
        guard case .feeds(var list) = state.mode else { return }
        list.summaries[name] = summary
        state.mode = .feeds(list)
    }

    static func pressInFeeds(_ state: inout AppState, _ list: FeedListState, _ key: Key) -> [Effect] {
        var list = list
        let count = list.entries?.count ?? 0
        let rows = max(1, listRows(for: state.size))
        guard let command = state.keymap.command(for: key) else { return [] }
        switch command {
        case .down, .up, .first, .last, .pageDown, .pageUp, .halfDown, .halfUp:
            list.selection = command.moved(list.selection, count: count, rows: rows) ?? list.selection
        case .open:
            guard let entry = list.selectedEntry else { return [] }
            if entry.argument != nil {
                // reddit:SUBREDDIT: the argument is typed first.
                state.prompt = Prompt(.argument(entry))
                return []
            }
            return [.openFeed(entry.name)]
        case .back, .quit:
            // Back to the feed `F` was pressed in, if it was; q on the first screen quits.
            if state.hasFeed && !state.back.isEmpty { return leave(&state) }
            guard command == .quit else { return [] }
            state.shouldQuit = true
            return [.quit]
        case .reload: return [.listFeeds]
        case .search: state.prompt = Prompt(.search)
        case .help: state.overlay = .help(scroll: 0)
        case .log: state.overlay = .log
        default: return []
        }
        list.selection = max(0, min(count - 1, list.selection))
        showFeedList(&state, list)
        return []
    }

    /// Shows `list` scrolled so its selection is in view.
    static func showFeedList(_ state: inout AppState, _ list: FeedListState) {
        var list = list
        let rows = max(1, listRows(for: state.size))
        if list.selection < list.scroll { list.scroll = list.selection }
        if list.selection >= list.scroll + rows { list.scroll = list.selection - rows + 1 }
        list.scroll = max(0, min(list.scroll, max(0, (list.entries?.count ?? 0) - rows)))
        state.mode = .feeds(list)
    }

    /// A feed was opened from the list: what was shown of the last one goes, its pages load, and q
    /// comes back to the list.
    static func openedFeed(_ state: inout AppState, title: String, hasComments: Bool) -> [Effect] {
        let list = state.mode
        var fresh = AppState(feedTitle: title, size: state.size, now: state.now)
        fresh.toasts = state.toasts
        fresh.keymap = state.keymap
        fresh.marksWithGlyphs = state.marksWithGlyphs
        fresh.seenAfter = state.seenAfter
        fresh.staleAfter = state.staleAfter
        fresh.watchInterval = state.watchInterval
        fresh.watch = state.watch.map { Watch(interval: $0.interval, next: state.now.addingTimeInterval($0.interval)) }
        fresh.commentsAvailable = hasComments
        if case .feeds = list { fresh.back = [list] }
        state = fresh
        return appendNextPage(&state, explicit: true)
    }
}
