import Foundation
import RiffleKit

extension App {
    static func handle(_ state: inout AppState, _ event: TerminalEvent) -> [Effect] {
        switch event {
        case .resize(let size):
            state.size = size
            keepSelectionVisible(&state)
            return []
        case .mouseWheel(let up):
            move(&state, by: up ? -wheelStep : wheelStep)
            return []
        case .mouseClick(_, let y):
            let index = state.scrollOffset + y - listArea(for: state.size).y
            if y >= listArea(for: state.size).y, y < listArea(for: state.size).maxY, index < state.items.count {
                select(&state, index)
            }
            return []
        case .key(let key):
            return press(&state, key)
        }
    }

    /// Rows one turn of the mouse wheel moves.
    static let wheelStep = 3

    static func press(_ state: inout AppState, _ key: Key) -> [Effect] {
        let rows = max(1, listRows(for: state.size))
        switch key {
        case .up, .character("k"): move(&state, by: -1)
        case .down, .character("j"): move(&state, by: 1)
        case .home, .character("g"): select(&state, 0)
        case .end, .character("G"): select(&state, state.items.count - 1)
        case .pageUp: move(&state, by: -rows)
        case .pageDown: move(&state, by: rows)
        case .control("u"): move(&state, by: -max(1, rows / 2))
        case .control("d"): move(&state, by: max(1, rows / 2))
        case .character("n"):
            return request(&state, page: wantedPage(state) + 1, policy: .returnCacheElseLoad)
        case .character("p"):
            let target = wantedPage(state) - 1
            guard target >= 1 else { return [] }
            return request(&state, page: target, policy: .returnCacheElseLoad)
        case .character("r"):
            return request(&state, page: state.pageNumber, policy: .reloadIgnoringCache)
        case .character("q"):
            state.shouldQuit = true
            return [.quit]
        default: break
        }
        return []
    }

    /// Moves the selection by `delta` rows, stopping at the ends.
    static func move(_ state: inout AppState, by delta: Int) {
        select(&state, state.selection + delta)
    }

    /// Selects row `index`, clamped to the list.
    static func select(_ state: inout AppState, _ index: Int) {
        guard !state.items.isEmpty else { return }
        state.selection = min(max(0, index), state.items.count - 1)
        keepSelectionVisible(&state)
    }

    /// Scrolls just enough for the selected row to be on screen.
    static func keepSelectionVisible(_ state: inout AppState) {
        let rows = max(1, listRows(for: state.size))
        if state.selection < state.scrollOffset { state.scrollOffset = state.selection }
        if state.selection >= state.scrollOffset + rows { state.scrollOffset = state.selection - rows + 1 }
        state.scrollOffset = max(0, min(state.scrollOffset, max(0, state.items.count - rows)))
    }
}
