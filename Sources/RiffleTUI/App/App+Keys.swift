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
            return []
        case .mouseWheel(let up):
            guard state.overlay == nil else { return [] }
            if case .detail(let detail) = state.mode {
                scrollDetail(&state, detail, by: up ? -wheelStep : wheelStep)
                return []
            }
            return move(&state, by: up ? -wheelStep : wheelStep)
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

    /// Sends a key to whatever has it: an open box, the detail, or the list.
    static func press(_ state: inout AppState, _ key: Key) -> [Effect] {
        switch state.overlay {
        case .help(let scroll):
            scrollHelp(&state, from: scroll, key)
            return []
        case .log:
            if key == .escape || key == .character("q") || key == .character("L") { state.overlay = nil }
            return []
        case nil: break
        }
        if case .detail(let detail) = state.mode { return pressInDetail(&state, detail, key) }
        if let filter = state.filter, filter.isEditing { return pressInFilter(&state, filter, key) }
        return pressInList(&state, key)
    }

    /// In the help: j, k and the arrows scroll it when it does not fit; any other key closes it.
    static func scrollHelp(_ state: inout AppState, from scroll: Int, _ key: Key) {
        let area = Rect(x: 0, y: 0, width: state.size.width, height: state.size.height)
        let step: Int
        switch key {
        case .down, .character("j"): step = 1
        case .up, .character("k"): step = -1
        default: step = 0
        }
        guard step != 0, HelpOverlay.scrolls(in: area) else {
            state.overlay = nil
            return
        }
        state.overlay = .help(scroll: max(0, min(HelpOverlay.maxScroll(in: area), scroll + step)))
    }

    static func pressInList(_ state: inout AppState, _ key: Key) -> [Effect] {
        let rows = max(1, listRows(for: state.size))
        switch key {
        case .up, .character("k"): return move(&state, by: -1)
        case .down, .character("j"): return move(&state, by: 1)
        case .home, .character("g"): select(&state, 0)
        case .end, .character("G"): select(&state, state.rows.count - 1)
        case .pageUp: return move(&state, by: -rows)
        case .pageDown: return move(&state, by: rows)
        case .control("u"): return move(&state, by: -max(1, rows / 2))
        case .control("d"): return move(&state, by: max(1, rows / 2))
        case .character("n"): return jump(&state, by: 1)
        case .character("p"): return jump(&state, by: -1)
        case .character("r"):
            // A failed load (the first page, or the next one) is retried; else this page is reloaded.
            guard !state.pages.isEmpty, state.failure == nil else { return appendNextPage(&state, explicit: true) }
            return reload(&state, page: state.pageNumber)
        case .character("R"):
            guard !state.pages.isEmpty else { return appendNextPage(&state, explicit: true) }
            return state.pages.map(\.number).flatMap { reload(&state, page: $0) }
        case .enter: openDetail(&state)
        case .character("/"):
            state.filter = FilterState(query: state.filter?.query ?? "", isEditing: true)
        case .escape: clearFilter(&state)
        case .character("?"): state.overlay = .help(scroll: 0)
        case .character("L"): state.overlay = .log
        case .character("o"): return openLink(&state, state.selectedItem)
        case .character("q"):
            state.shouldQuit = true
            return [.quit]
        default: break
        }
        return []
    }

    /// Moves the selection by `delta` rows, stopping at the ends.
    /// Moving down past the last item asks for the next page and selects its first item on arrival.
    static func move(_ state: inout AppState, by delta: Int) -> [Effect] {
        state.pendingJump = nil
        let count = state.rows.count
        guard delta > 0, state.selection + delta >= count, !state.items.isEmpty, !state.endOfFeed else {
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
