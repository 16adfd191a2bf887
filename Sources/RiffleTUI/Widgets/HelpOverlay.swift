/// The `?` box: every key in force and what it does, centred over the screen; it scrolls when the
/// screen is too small to hold it.
package struct HelpOverlay: Sendable {
    /// One line of the help: the keys as shown, the keys themselves, and what they do.
    package struct Binding: Sendable, Equatable {
        /// The keys as the help shows them, e.g. "j ↓".
        package var label: String
        /// The keys the label stands for, on a screen (empty for the mouse, and for the keys that
        /// edit a line being typed: `TextField.help`).
        package var keys: [Key]
        /// What they do.
        package var action: String
    }

    /// The lines, in the order of `Command` (commands without a key are left out), then the mouse,
    /// then the keys that edit a line being typed (the filter, search, the prompts), each saying "typing:".
    /// Tests check that every key the browser answers is listed, and that every key listed does something.
    package let bindings: [Binding]

    /// The first binding shown.
    package var scroll: Int
    /// The keys that scroll the box, as the footer names them ("j k").
    let scrollKeys: String

    /// The help for `keymap`, from binding `scroll` on.
    package init(keymap: KeyMap = .standard, scroll: Int = 0) {
        var bindings: [Binding] = []
        var listed: Set<Command> = []
        for command in Command.allCases where !listed.contains(command) {
            let keys = keymap.keys(for: command)
            // A command and its opposite share a line when both have keys: "j ↓ k ↑  move down / up".
            if let (partner, action) = Self.pairs[command], case let other = keymap.keys(for: partner), !keys.isEmpty, !other.isEmpty {
                bindings.append(Binding(label: (keys + other).map(KeyMap.label).joined(separator: " "), keys: keys + other, action: action))
                listed.insert(partner)
                continue
            }
            guard !keys.isEmpty else { continue }
            bindings.append(Binding(label: keys.map(KeyMap.label).joined(separator: " "), keys: keys, action: command.summary))
        }
        bindings.append(Binding(label: "wheel, click", keys: [], action: "move 3 / select"))
        bindings += TextField.help.map { Binding(label: $0.keys.map(KeyMap.label).joined(separator: " "), keys: [], action: "typing: " + $0.action) }
        self.bindings = bindings
        self.scroll = scroll
        scrollKeys = [Command.down, .up].compactMap { keymap.keys(for: $0).first.map(KeyMap.label) }.joined(separator: " ")
    }

    /// Commands the help shows on one line with their opposite, and what that line says.
    static let pairs: [Command: (Command, String)] = [
        .down: (.up, "move down / up"), .first: (.last, "first / last item"), .pageDown: (.pageUp, "a screen down / up"),
        .halfDown: (.halfUp, "half a screen down / up"), .nextPage: (.previousPage, "next / previous page"),
        .nextThread: (.previousThread, "comments: next / previous thread"),
        .comments: (.discussion, "comments / their page in the browser"), .yankLink: (.yankJSON, "copy link / JSON; comment: permalink"),
        .toggleSeen: (.markAllSeen, "seen or not / all loaded seen"), .reload: (.reloadAll, "reload page / all; F: the feed / all"),
    ]

    var keysWidth: Int { bindings.map { TextWidth.width(of: $0.label) }.max() ?? 0 }
    var actionWidth: Int { bindings.map { TextWidth.width(of: $0.action) }.max() ?? 0 }

    /// Where the box goes in `area`, and how many bindings fit in it (a blank row and the footer
    /// take the box's last two inside rows).
    func layout(in area: Rect) -> (box: Rect, rows: Int) {
        let box = Box.centred(width: keysWidth + actionWidth + 6, height: bindings.count + 4, in: area)
        return (box, max(0, box.height - 4))
    }

    /// Whether the bindings do not all fit in `area`, so the box scrolls.
    package func scrolls(in area: Rect) -> Bool { layout(in: area).rows < bindings.count }

    /// The largest useful `scroll` in `area`.
    package func maxScroll(in area: Rect) -> Int { max(0, bindings.count - layout(in: area).rows) }

    /// Draws the box centred in `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        let (box, rows) = layout(in: area)
        let keysWidth = self.keysWidth
        let inside = Box(title: "keys").render(into: &buffer, area: box)
        let first = max(0, min(scroll, maxScroll(in: area)))
        for (row, binding) in bindings.dropFirst(first).prefix(rows).enumerated() {
            buffer.write(binding.label, x: inside.x + 1, y: inside.y + row, maxWidth: keysWidth, style: Style(.accent, bold: true))
            buffer.write(binding.action, x: inside.x + keysWidth + 3, y: inside.y + row,
                         maxWidth: inside.maxX - inside.x - keysWidth - 3)
        }
        guard inside.height >= 1 else { return }
        let footer = rows < bindings.count
            ? "\(scrollKeys) scroll · \(first + 1)-\(first + rows) of \(bindings.count) · other keys close"
            : "any key closes"
        buffer.write(footer, x: inside.x + 1, y: inside.maxY - 1, maxWidth: inside.width - 1, style: Style(.dim, dim: true))
    }
}
