/// The `?` box: every key and what it does, centred over the screen; it scrolls when the screen is
/// too small to hold it.
public struct HelpOverlay: Sendable {
    /// One line of the help: the keys as shown, the keys themselves, and what they do.
    public struct Binding: Sendable {
        /// The keys as the help shows them, e.g. "j k ↑ ↓".
        public var label: String
        /// The keys the label stands for (empty for the mouse).
        public var keys: [Key]
        /// What they do.
        public var action: String
    }

    /// The keys, in the order shown. Tests check that every key the browser answers is listed here,
    /// and that every key listed here does something.
    public static let bindings: [Binding] = [
        Binding(label: "j k ↑ ↓", keys: [.character("j"), .character("k"), .up, .down], action: "move"),
        Binding(label: "g G Home End", keys: [.character("g"), .character("G"), .home, .end], action: "first / last item"),
        Binding(label: "PgUp PgDn", keys: [.pageUp, .pageDown], action: "a screen up / down"),
        Binding(label: "^u ^d", keys: [.control("u"), .control("d")], action: "half a screen up / down"),
        Binding(label: "wheel, click", keys: [], action: "move 3 / select"),
        Binding(label: "n p", keys: [.character("n"), .character("p")], action: "next / previous page"),
        Binding(label: "Enter", keys: [.enter], action: "show the item"),
        Binding(label: "v", keys: [.character("v")], action: "item: fields / raw JSON"),
        Binding(label: "Space", keys: [.character(" ")], action: "item: a screen down"),
        Binding(label: "o", keys: [.character("o")], action: "open the link"),
        Binding(label: "/", keys: [.character("/")], action: "filter (Enter keep, Esc clear)"),
        Binding(label: "r", keys: [.character("r")], action: "reload page / retry a failure"),
        Binding(label: "R", keys: [.character("R")], action: "reload every page"),
        Binding(label: "L", keys: [.character("L")], action: "message log"),
        Binding(label: "?", keys: [.character("?")], action: "this help"),
        Binding(label: "Esc q", keys: [.escape, .character("q")], action: "back; q quits the list"),
    ]

    /// The first binding shown.
    public var scroll: Int

    /// The help box from binding `scroll` on.
    public init(scroll: Int = 0) { self.scroll = scroll }

    static var keysWidth: Int { bindings.map { TextWidth.width(of: $0.label) }.max() ?? 0 }
    static var actionWidth: Int { bindings.map { TextWidth.width(of: $0.action) }.max() ?? 0 }

    /// Where the box goes in `area`, and how many bindings fit in it (a blank row and the footer
    /// take the box's last two inside rows).
    static func layout(in area: Rect) -> (box: Rect, rows: Int) {
        let box = Box.centred(width: keysWidth + actionWidth + 6, height: bindings.count + 4, in: area)
        return (box, max(0, box.height - 4))
    }

    /// Whether the bindings do not all fit in `area`, so the box scrolls.
    public static func scrolls(in area: Rect) -> Bool { layout(in: area).rows < bindings.count }

    /// The largest useful `scroll` in `area`.
    public static func maxScroll(in area: Rect) -> Int { max(0, bindings.count - layout(in: area).rows) }

    /// Draws the box centred in `area`.
    public func render(into buffer: inout Buffer, area: Rect) {
        let (box, rows) = HelpOverlay.layout(in: area)
        let keysWidth = HelpOverlay.keysWidth
        let inside = Box(title: "keys").render(into: &buffer, area: box)
        let first = max(0, min(scroll, HelpOverlay.maxScroll(in: area)))
        for (row, binding) in HelpOverlay.bindings.dropFirst(first).prefix(rows).enumerated() {
            buffer.write(binding.label, x: inside.x + 1, y: inside.y + row, maxWidth: keysWidth, style: Style(.accent, bold: true))
            buffer.write(binding.action, x: inside.x + keysWidth + 3, y: inside.y + row,
                         maxWidth: inside.maxX - inside.x - keysWidth - 3)
        }
        guard inside.height >= 1 else { return }
        let footer = rows < HelpOverlay.bindings.count
            ? "j k scroll · \(first + 1)-\(first + rows) of \(HelpOverlay.bindings.count) · other keys close"
            : "any key closes"
        buffer.write(footer, x: inside.x + 1, y: inside.maxY - 1, maxWidth: inside.width - 1, style: Style(.dim, dim: true))
    }
}
