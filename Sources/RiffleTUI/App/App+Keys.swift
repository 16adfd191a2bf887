import Foundation
import RiffleKit

extension App {
    static func handle(_ state: inout AppState, _ event: TerminalEvent) -> [Effect] {
        switch event {
        case .resize(let size):
            state.size = size
            keepSelectionVisible(&state)
            // Lines rewrap to the new width: the detail's scroll must still end at the last line.
            if case .detail(let detail) = state.mode { scrollDetail(&state, detail, by: 0) }
            if case .comments(let comments) = state.mode { showComments(&state, comments) }
            return []
        case .mouseWheel(let up):
            guard state.overlay == nil else { return [] }
            switch state.mode {
            case .detail(let detail):
                scrollDetail(&state, detail, by: up ? -wheelStep : wheelStep)
                return []
            case .list:
                return move(&state, by: up ? -wheelStep : wheelStep)
            case .comments, .feeds, .search:
                return press(&state, up ? .up : .down)
            }
        case .mouseClick(_, let y):
            guard state.mode == .list, state.overlay == nil else { return [] }
            let list = listArea(for: state.size)
            let line = state.scrollOffset + y - list.y
            if y >= list.y, y < list.maxY, state.lines.indices.contains(line), case .item(let row) = state.lines[line] {
                select(&state, row)
            }
            return []
        case .key(let key):
            return press(&state, key)
        }
    }

    /// Rows one turn of the mouse wheel moves.
    static let wheelStep = 3

    /// Sends a key to whatever has it: an open box, a line being typed, or the screen shown.
    static func press(_ state: inout AppState, _ key: Key) -> [Effect] {
        switch state.overlay {
        case .help(let scroll):
            scrollHelp(&state, from: scroll, key)
            return []
        case .log:
            let command = state.keymap.command(for: key)
            if command == .back || command == .quit || command == .log { state.overlay = nil }
            return []
        case nil: break
        }
        if let prompt = state.prompt { return pressInPrompt(&state, prompt, key) }
        switch state.mode {
        case .detail(let detail): return pressInDetail(&state, detail, key)
        case .comments(let comments): return pressInComments(&state, comments, key)
        case .feeds(let feeds): return pressInFeeds(&state, feeds, key)
        case .search(let search): return pressInSearch(&state, search, key)
        case .list: break
        }
        if let filter = state.filter, filter.isEditing { return pressInFilter(&state, filter, key) }
        return pressInList(&state, key)
    }

    /// In the help: the keys that move up and down scroll it when it does not fit; any other key closes it.
    static func scrollHelp(_ state: inout AppState, from scroll: Int, _ key: Key) {
        let area = Rect(x: 0, y: 0, width: state.size.width, height: state.size.height)
        let step: Int
        switch state.keymap.command(for: key) {
        case .down: step = 1
        case .up: step = -1
        default: step = 0
        }
        let help = HelpOverlay(keymap: state.keymap)
        guard step != 0, help.scrolls(in: area) else {
            state.overlay = nil
            return
        }
        state.overlay = .help(scroll: max(0, min(help.maxScroll(in: area), scroll + step)))
    }

    static func pressInList(_ state: inout AppState, _ key: Key) -> [Effect] {
        let rows = max(1, listRows(for: state.size))
        guard let command = state.keymap.command(for: key) else { return [] }
        switch command {
        case .up: return move(&state, by: -1)
        case .down: return move(&state, by: 1)
        case .first: select(&state, 0)
        case .last: select(&state, state.rows.count - 1)
        case .pageUp: return move(&state, by: -rows)
        case .pageDown: return move(&state, by: rows)
        case .halfUp: return move(&state, by: -max(1, rows / 2))
        case .halfDown: return move(&state, by: max(1, rows / 2))
        case .nextPage: return jump(&state, by: 1)
        case .previousPage: return jump(&state, by: -1)
        case .reload:
            // A failed load (the first page, or the next one) is retried; else this page is reloaded.
            guard !state.pages.isEmpty, state.failure == nil else { return appendNextPage(&state, explicit: true) }
            return reloadPages(&state, [state.pageNumber])
        case .reloadAll:
            guard !state.pages.isEmpty else { return appendNextPage(&state, explicit: true) }
            return reloadPages(&state, state.pages.map(\.number))
        case .open: return openDetail(&state)
        case .filter:
            state.filter = FilterState(query: state.filter?.query ?? "", isEditing: true)
        case .back:
            if state.filter != nil { clearFilter(&state) } else { return leave(&state) }
        case .help: state.overlay = .help(scroll: 0)
        case .log: state.overlay = .log
        case .openLink: return openLink(&state, state.selectedItem)
        case .comments: return openComments(&state, state.selectedItem)
        case .discussion: return openDiscussion(&state, state.selectedItem)
        case .yankLink: return yankLink(&state, state.selectedItem)
        case .yankJSON: return yankJSON(&state, state.selectedItem)
        case .toggleSeen: return toggleSeen(&state)
        case .markAllSeen: return markAllSeen(&state)
        case .sort: changeSort(&state)
        case .watch: toggleWatch(&state)
        case .search: state.prompt = Prompt(.search)
        case .feeds: return showFeeds(&state)
        case .quit:
            guard state.back.isEmpty else { return leave(&state) }
            state.shouldQuit = true
            return [.quit]
        case .rawJSON: break
        }
        return []
    }

    /// Esc or q on a screen another one led to: back to that one (the list under an item, the feed
    /// list under a feed).
    /// Back in the feed list, its counts are asked again: the feed just read changed them.
    @discardableResult
    static func leave(_ state: inout AppState) -> [Effect] {
        guard let previous = state.back.popLast() else { return [] }
        state.mode = previous
        guard case .feeds = previous else { return [] }
        state.prompt = nil
        return [.listFeeds]
    }

    /// Moves the selection by `delta` rows, stopping at the ends.
    /// Moving down past the last item asks for the next page and selects its first item on arrival.
    static func move(_ state: inout AppState, by delta: Int) -> [Effect] {
        state.pendingJump = nil
        let count = state.rows.count
        guard delta > 0, state.selection + delta >= count, !state.items.isEmpty, !state.endOfFeed, state.sort == .feed else {
            select(&state, state.selection + delta)
            return []
        }
        select(&state, state.selection + delta)
        state.pendingJump = state.nextPageNumber
        return appendNextPage(&state, explicit: true)
    }

    /// Selects row `index`, clamped to the list.
    static func select(_ state: inout AppState, _ index: Int) {
        state.pendingJump = nil
        let count = state.rows.count
        guard count > 0 else { return }
        state.selection = min(max(0, index), count - 1)
        keepSelectionVisible(&state)
    }

    /// Scrolls just enough for the selected row to be on screen, with the "page N" line above it when
    /// it is a page's first, and the footer line ("loading", "end of feed") when it is the last.
    /// A view that starts at a page (after `n` or `p`) may leave blank lines below the end.
    static func keepSelectionVisible(_ state: inout AppState) {
        let rows = max(1, listRows(for: state.size))
        let total = state.lines.count + (hasFooter(state) ? 1 : 0)
        guard state.lineOfRow.indices.contains(state.selection) else {
            state.scrollOffset = 0
            return
        }
        let line = state.lineOfRow[state.selection]
        let top = line > 0 && state.lines[line - 1].isPageBoundary ? line - 1 : line
        let bottom = state.selection == state.rows.count - 1 ? total - 1 : line
        if top < state.scrollOffset { state.scrollOffset = top }
        if bottom >= state.scrollOffset + rows { state.scrollOffset = bottom - rows + 1 }
        state.scrollOffset = min(state.scrollOffset, line)
        if state.scrollOffset > total - rows && !startsAPage(state, line: state.scrollOffset) {
            state.scrollOffset = max(0, min(line, total - rows))
        }
        state.scrollOffset = max(0, state.scrollOffset)
    }

    /// Scrolls the list so the selected row's page starts at its top: its "page N" line, then the row.
    static func bringSelectionToTop(_ state: inout AppState) {
        guard state.lineOfRow.indices.contains(state.selection) else { return }
        let line = state.lineOfRow[state.selection]
        state.scrollOffset = line > 0 && state.lines[line - 1].isPageBoundary ? line - 1 : line
        keepSelectionVisible(&state)
    }

    /// Whether `line` is where a page begins: the top of the list or a "page N" line.
    static func startsAPage(_ state: AppState, line: Int) -> Bool {
        line == 0 || (state.lines.indices.contains(line) && state.lines[line].isPageBoundary)
    }

    /// Whether the list ends with a footer row.
    static func hasFooter(_ state: AppState) -> Bool {
        !state.rows.isEmpty && (state.isAppending || state.failure != nil || state.endOfFeed)
    }
}
