import Foundation
import RiffleKit

extension App {
    /// Moves the list's selection by `delta` rows, stopping at the ends.
    /// Moving down past the last item asks for the next page and selects its first item on arrival.
    /// With `seen: scroll`, the rows moved down past become seen.
    static func move(_ state: inout AppState, by delta: Int) -> [Effect] {
        state.feed.paging.pendingJump = nil
        let count = state.list.rows.count
        let paging = state.feed.paging
        let from = state.list.selection
        guard delta > 0, state.list.selection + delta >= count, !state.list.items.isEmpty, !paging.endOfFeed, state.list.sort == .feed else {
            select(&state, state.list.selection + delta)
            return markPassedSeen(&state, from: from)
        }
        select(&state, state.list.selection + delta)
        state.feed.paging.pendingJump = state.list.pages.nextNumber
        return markPassedSeen(&state, from: from) + appendNextPage(&state, explicit: true)
    }

    /// Selects row `index` of the list, clamped to it.
    static func select(_ state: inout AppState, _ index: Int) {
        state.feed.paging.pendingJump = nil
        state.feed.paging.unseenSearch = nil
        let count = state.list.rows.count
        guard count > 0 else { return }
        state.list.selection = min(max(0, index), count - 1)
        keepSelectionVisible(&state)
    }

    /// Scrolls just enough for the selected row to be on screen, with the "page N" line above it when
    /// it is a page's first, and the footer line ("loading", "end of feed") when it is the last.
    /// A view that starts at a page (after `n` or `p`) may leave blank lines below the end.
    static func keepSelectionVisible(_ state: inout AppState) {
        let rows = max(1, listRows(for: state.size))
        let index = state.list.index
        let selection = state.list.selection
        let total = index.lines.count + (hasFooter(state) ? 1 : 0)
        guard index.lineOfRow.indices.contains(selection) else {
            state.list.scrollOffset = 0
            return
        }
        var offset = state.list.scrollOffset
        let line = index.lineOfRow[selection]
        let top = line > 0 && index.lines[line - 1].isPageBoundary ? line - 1 : line
        let bottom = selection == index.rows.count - 1 ? total - 1 : line
        if top < offset { offset = top }
        if bottom >= offset + rows { offset = bottom - rows + 1 }
        offset = min(offset, line)
        if offset > total - rows && !startsAPage(index, line: offset) {
            offset = max(0, min(line, total - rows))
        }
        state.list.scrollOffset = max(0, offset)
    }

    /// Scrolls the list so the selected row's page starts at its top: its "page N" line, then the row.
    static func bringSelectionToTop(_ state: inout AppState) {
        let index = state.list.index
        guard index.lineOfRow.indices.contains(state.list.selection) else { return }
        let line = index.lineOfRow[state.list.selection]
        state.list.scrollOffset = line > 0 && index.lines[line - 1].isPageBoundary ? line - 1 : line
        keepSelectionVisible(&state)
    }

    /// Whether `line` is where a page begins: the top of the list or a "page N" line.
    static func startsAPage(_ index: ListIndex, line: Int) -> Bool {
        line == 0 || (index.lines.indices.contains(line) && index.lines[line].isPageBoundary)
    }

    /// Whether the list ends with a footer row.
    static func hasFooter(_ state: AppState) -> Bool {
        let paging = state.feed.paging
        return !state.list.rows.isEmpty && (paging.isAppending || paging.failure != nil || paging.endOfFeed)
    }
}
