import Foundation
import RiffleKit

extension App {
    /// Keys while a line is typed at the bottom: text edits it, Enter runs it, Esc drops it.
    static func pressInPrompt(_ state: inout AppState, _ prompt: Prompt, _ key: Key) -> [Effect] {
        var prompt = prompt
        switch key {
        case .character(let character):
            prompt.text.append(character)
        case .backspace, .delete:
            guard !prompt.text.isEmpty else {
                state.prompt = nil
                return []
            }
            prompt.text.removeLast()
        case .escape:
            state.prompt = nil
            return []
        case .enter:
            state.prompt = nil
            let text = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return [] }
            switch prompt.purpose {
            case .search:
                // Results stack on the screen they were asked from; a new search replaces the last.
                if case .search = state.mode {} else { state.back.append(state.mode) }
                state.mode = .search(SearchState(query: text))
                return [.search(text)]
            case .argument(let entry):
                return [.openFeed("\(entry.name):\(text)")]
            }
        default:
            return []
        }
        state.prompt = prompt
        return []
    }

    /// What a search found, or why it failed, for the results screen when it still waits for them.
    static func receiveSearch(_ state: inout AppState, query: String, matches: [ReadingLog.Match], failure: String? = nil) {
        guard case .search(var search) = state.mode, search.query == query else { return }
        search.matches = matches
        search.failure = failure
        state.mode = .search(search)
    }

    static func pressInSearch(_ state: inout AppState, _ search: SearchState, _ key: Key) -> [Effect] {
        var search = search
        let count = search.matches?.count ?? 0
        let rows = max(1, listRows(for: state.size))
        let selected = search.items[safe: search.selection]
        guard let command = state.keymap.command(for: key) else { return [] }
        switch command {
        case .down, .up, .first, .last, .pageDown, .pageUp, .halfDown, .halfUp:
            search.selection = command.moved(search.selection, count: count, rows: rows) ?? search.selection
        case .open:
            guard let selected else { return [] }
            state.back.append(state.mode)
            state.mode = .detail(DetailState(item: selected))
            return []
        case .openLink: return openLink(&state, selected)
        case .yankLink: return yankLink(&state, selected)
        case .yankJSON: return yankJSON(&state, selected)
        case .search: state.prompt = Prompt(.search, text: search.query)
        case .back, .quit:
            return leave(&state)
        case .help: state.overlay = .help(scroll: 0)
        case .log: state.overlay = .log
        default: return []
        }
        search.selection = max(0, min(count - 1, search.selection))
        if search.selection < search.scroll { search.scroll = search.selection }
        if search.selection >= search.scroll + rows { search.scroll = search.selection - rows + 1 }
        state.mode = .search(search)
        return []
    }
}
