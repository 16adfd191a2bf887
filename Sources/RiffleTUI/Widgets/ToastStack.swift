/// Toasts drawn one per line in a corner of an area, newest at the bottom: a block as wide as the
/// longest message (and no wider than the area), against the area's right edge, so the list's rows
/// stay readable to its left.
package struct ToastStack: Sendable {
    /// The messages to draw, oldest first.
    package var messages: [String]

    /// A stack of `messages`.
    package init(messages: [String]) { self.messages = messages }

    /// The block's width for `messages` in an area `width` columns wide: each message with a column
    /// of margin on both sides, the widest deciding.
    package static func width(of messages: [String], within width: Int) -> Int {
        let widest = messages.map { TextWidth.width(of: Sanitizer.clean($0)) }.max() ?? 0
        return min(width, widest + 2)
    }

    /// Draws the last messages that fit, bottom-aligned in `area`, against its right edge.
    package func render(into buffer: inout Buffer, area: Rect) {
        let shown = Array(messages.suffix(area.height))
        let width = Self.width(of: shown, within: area.width)
        let x = area.maxX - width
        var y = area.maxY - shown.count
        for message in shown {
            buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: Style(.toast))
            buffer.write(message, x: x + 1, y: y, maxWidth: width - 2, style: Style(.toast, bold: true))
            y += 1
        }
    }
}
