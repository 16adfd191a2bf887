/// Toasts drawn one per line at the bottom of an area, newest at the bottom.
package struct ToastStack: Sendable {
    /// The messages to draw, oldest first.
    package var messages: [String]

    /// A stack of `messages`.
    package init(messages: [String]) { self.messages = messages }

    /// Draws the last messages that fit, bottom-aligned in `area`, each on a full-width toast line.
    package func render(into buffer: inout Buffer, area: Rect) {
        let shown = messages.suffix(area.height)
        var y = area.maxY - shown.count
        for message in shown {
            buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Style(.toast))
            buffer.write(message, x: area.x + 1, y: y, maxWidth: area.width - 2, style: Style(.toast, bold: true))
            y += 1
        }
    }
}
