/// What is drawn over the shown screen, on top of the stack; the keys go to it while it is open.
package enum Overlay: Sendable, Equatable {
    /// Every key and what it does (`?`), from binding `scroll` on. When it does not fit the screen
    /// j, k and the arrows scroll it; any other key closes it.
    case help(scroll: Int)
    /// Every message raised so far (`L`); Esc, q or L close it.
    case log
    /// A line typed at the bottom (search words, a feed's argument), over the status bar.
    case prompt(Prompt)
    /// The links of a comment (`o` on one with several).
    case links(LinkMenu)

    /// Whether it is a box over the middle of the screen, which the mouse does not reach through.
    package var isBox: Bool {
        if case .prompt = self { false } else { true }
    }

    /// What `key` does while this is on top.
    func press(_ key: Key, in state: inout AppState) -> [Effect] {
        switch self {
        case .help(let scroll):
            Self.scrollHelp(from: scroll, key, in: &state)
            return []
        case .log:
            let command = state.settings.keymap.command(for: key)
            if command == .back || command == .quit || command == .log { state.screens.pop() }
            return []
        case .prompt(let prompt):
            return prompt.press(key, in: &state)
        case .links(let menu):
            return menu.press(key, in: &state)
        }
    }

    /// In the help: the keys that move up and down scroll it when it does not fit; any other key closes it.
    private static func scrollHelp(from scroll: Int, _ key: Key, in state: inout AppState) {
        let area = Rect(x: 0, y: 0, width: state.size.width, height: state.size.height)
        let step: Int
        switch state.settings.keymap.command(for: key) {
        case .down: step = 1
        case .up: step = -1
        default: step = 0
        }
        let help = HelpOverlay(keymap: state.settings.keymap)
        state.screens.pop()
        guard step != 0, help.scrolls(in: area) else { return }
        state.screens.push(.overlay(.help(scroll: max(0, min(help.maxScroll(in: area), scroll + step)))))
    }

    /// Draws it over whatever `buffer` holds.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        switch self {
        case .help(let scroll):
            HelpOverlay(keymap: state.settings.keymap, scroll: scroll).render(into: &buffer, area: area)
        case .log:
            LogOverlay(messages: state.toasts.map(\.message)).render(into: &buffer, area: area)
        case .prompt(let prompt):
            PromptBar(prompt: prompt).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
        case .links(let menu):
            menu.render(into: &buffer, area: area)
        }
    }
}
