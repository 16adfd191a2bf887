/// The `?` box: every key and what it does, centred over the screen.
public struct HelpOverlay: Sendable {
    /// The keys, in the order shown: (keys, what they do).
    public static let bindings: [(keys: String, action: String)] = [
        ("j k ↑ ↓", "move"),
        ("g G Home End", "first / last item"),
        ("PgUp PgDn", "a screen up / down"),
        ("^u ^d", "half a screen up / down"),
        ("wheel, click", "move 3 / select"),
        ("n p", "next / previous page"),
        ("Enter", "show the item"),
        ("v", "item: fields / raw JSON"),
        ("o", "open the link"),
        ("/", "filter (Enter keep, Esc clear)"),
        ("r", "reload this page"),
        ("R", "reload every page"),
        ("L", "message log"),
        ("?", "this help"),
        ("Esc q", "back; q quits the list"),
    ]

    /// The help box (its content is `bindings`).
    public init() {}

    /// Draws the box centred in `area` (cut when it does not fit).
    public func render(into buffer: inout Buffer, area: Rect) {
        let keysWidth = HelpOverlay.bindings.map { TextWidth.width(of: $0.keys) }.max() ?? 0
        let actionWidth = HelpOverlay.bindings.map { TextWidth.width(of: $0.action) }.max() ?? 0
        let footer = "any key closes"
        let box = Box.centred(width: keysWidth + actionWidth + 6, height: HelpOverlay.bindings.count + 4, in: area)
        let inside = Box(title: "keys").render(into: &buffer, area: box)
        for (row, binding) in HelpOverlay.bindings.prefix(max(0, inside.height - 2)).enumerated() {
            buffer.write(binding.keys, x: inside.x + 1, y: inside.y + row, maxWidth: keysWidth, style: Style(.accent, bold: true))
            buffer.write(binding.action, x: inside.x + keysWidth + 3, y: inside.y + row,
                         maxWidth: inside.maxX - inside.x - keysWidth - 3)
        }
        if inside.height >= 1 {
            buffer.write(footer, x: inside.x + 1, y: inside.maxY - 1, maxWidth: inside.width - 1, style: Style(.dim, dim: true))
        }
    }
}
