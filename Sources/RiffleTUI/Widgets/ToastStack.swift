/// Toasts drawn one per line at the bottom of an area, newest at the bottom.
public struct ToastStack: Sendable {
    /// The messages to draw, oldest first.
    public var messages: [String]

    /// A stack of `messages`.
    public init(messages: [String]) { self.messages = messages }

    /// Draws the last messages that fit, bottom-aligned in `area`, each on a full-width toast line.
    public func render(into buffer: inout Buffer, area: Rect) {
        let shown = messages.suffix(area.height)
        var y = area.maxY - shown.count
        for message in shown {
            buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Style(.toast))
            buffer.write(message, x: area.x + 1, y: y, maxWidth: area.width - 2, style: Style(.toast, bold: true))
            y += 1
        }
    }
}
