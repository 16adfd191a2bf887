extension App {
    /// Keys while the filter is typed: text edits it, Enter keeps it, Esc clears it; arrows still move.
    static func pressInFilter(_ state: inout AppState, _ filter: FilterState, _ key: Key) -> [Effect] {
        var filter = filter
        switch key {
        case .character(let character):
            filter.query.append(character)
        case .backspace, .delete:
            guard !filter.query.isEmpty else { return [] }
            filter.query.removeLast()
        case .enter:
            state.filter = filter.query.isEmpty ? nil : FilterState(query: filter.query, isEditing: false)
            return []
        case .escape:
            clearFilter(&state)
            return []
        case .up, .down, .pageUp, .pageDown, .home, .end:
            return pressInList(&state, key)
        default:
            return []
        }
        refilter(&state) { $0.filter = filter }
        return []
    }

    /// Esc: shows every item again, still on the item that was selected.
    static func clearFilter(_ state: inout AppState) {
        guard state.filter != nil else { return }
        refilter(&state) { $0.filter = nil }
    }

    /// Changes the filter, keeping the selected item selected when it still shows, else the first row.
    static func refilter(_ state: inout AppState, _ change: (inout AppState) -> Void) {
        let selected = state.selectedIndex
        change(&state)
        state.selection = selected.flatMap { state.rows.firstIndex(of: $0) } ?? 0
        state.pendingJump = nil
        keepSelectionVisible(&state)
    }
}
