import Foundation
import RiffleKit

extension App {
    static func handle(_ state: inout AppState, _ event: TerminalEvent) -> [Effect] {
        switch event {
        case .resize(let size):
            state.size = size
            keepSelectionVisible(&state)
            // Lines rewrap to the new width: what was in view stays in view.
            if var screen = state.screens.shown.stacked {
                screen.settle(size: size, now: state.now)
                screen.resized(to: size, now: state.now)
                state.screens.shown = screen.screen
            }
            return []
        case .mouseWheel(let up):
            guard !(state.screens.overlay?.isBox ?? false) else { return [] }
            switch state.screens.shown {
            case .list:
                return move(&state, by: up ? -wheelStep : wheelStep)
            case .item(var screen):
                screen.scroll(by: up ? -wheelStep : wheelStep, size: state.size, now: state.now)
                state.screens.shown = .item(screen)
                return []
            default:
                return press(&state, up ? .up : .down)
            }
        case .mouseClick(_, let y):
            guard state.screens.shown == .list, !(state.screens.overlay?.isBox ?? false) else { return [] }
            let list = listArea(for: state.size)
            let index = state.list.index
            let line = state.list.scrollOffset + y - list.y
            if y >= list.y, y < list.maxY, index.lines.indices.contains(line), case .item(let row) = index.lines[line] {
                select(&state, row)
            }
            return []
        case .key(let key):
            return press(&state, key)
        }
    }

    /// Rows one turn of the mouse wheel moves.
    static let wheelStep = 3

    /// Sends a key to whatever has it: the overlay on top (a box, a line being typed), the filter
    /// being typed, or the command it is bound to.
    static func press(_ state: inout AppState, _ key: Key) -> [Effect] {
        if let overlay = state.screens.overlay { return overlay.press(key, in: &state) }
        if state.screens.shown == .list, state.list.filter?.isEditing == true { return ListScreen.pressInFilter(key, in: &state) }
        guard let command = state.settings.keymap.command(for: key) else { return [] }
        return run(command, &state)
    }

    /// Runs `command` on the screen shown: its own keys first, then the item commands on its selected
    /// item, then the browser's.
    static func run(_ command: Command, _ state: inout AppState) -> [Effect] {
        let screen = state.shownContent
        if let effects = type(of: screen).press(command, in: &state) { return effects }
        if let selection = screen.itemSelection, let effects = itemCommand(command, on: selection, &state) { return effects }
        return browserCommand(command, &state)
    }

    /// The browser's own commands, whatever the screen, for what neither the screen nor the item
    /// commands took: help, the log, search, and going back.
    static func browserCommand(_ command: Command, _ state: inout AppState) -> [Effect] {
        switch command {
        case .help:
            state.screens.push(.overlay(.help(scroll: 0)))
        case .log:
            state.screens.push(.overlay(.log))
        case .search:
            state.screens.push(.overlay(.prompt(Prompt(.search))))
        case .back, .quit:
            // Back to the screen this one was opened from; q on the first screen quits.
            if state.screens.canGoBack { return leave(&state) }
            guard command == .quit else { return [] }
            state.shouldQuit = true
            return [.quit]
        default:
            break
        }
        return []
    }

    /// Esc or q on a screen another one led to: back to that one (the list under an item, the feed
    /// list under a feed), as it was left.
    /// Back in the feed list, its counts are asked again: the feed just read changed them.
    @discardableResult
    static func leave(_ state: inout AppState) -> [Effect] {
        guard state.screens.pop() != nil else { return [] }
        guard case .feeds = state.screens.shown else { return [] }
        return [.listFeeds]
    }
}
