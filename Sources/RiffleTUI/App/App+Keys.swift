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
            let index = state.scrollOffset + y - listArea(for: state.size).y
            if y >= listArea(for: state.size).y, y < listArea(for: state.size).maxY, index < state.rows.count {
                select(&state, index)
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
            // Before the first page arrived there is nothing to reload: retry it instead.
            guard !state.pages.isEmpty else { return appendNextPage(&state, explicit: true) }
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

    /// Scrolls just enough for the selected row to be on screen, and the footer row ("loading",
    /// "end of feed") too when the last item is selected.
    static func keepSelectionVisible(_ state: inout AppState) {
        let rows = max(1, listRows(for: state.size))
        let count = state.rows.count
        let total = count + (hasFooter(state) ? 1 : 0)
        let bottom = state.selection == count - 1 ? total - 1 : state.selection
        if state.selection < state.scrollOffset { state.scrollOffset = state.selection }
        if bottom >= state.scrollOffset + rows { state.scrollOffset = bottom - rows + 1 }
        state.scrollOffset = max(0, min(state.scrollOffset, state.selection, max(0, total - rows)))
    }

    /// Whether the list ends with a footer row.
    static func hasFooter(_ state: AppState) -> Bool {
        !state.rows.isEmpty && (state.isAppending || state.endOfFeed)
    }
}
