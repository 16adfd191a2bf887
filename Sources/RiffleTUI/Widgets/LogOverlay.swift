/// The `L` box: every message raised so far, newest at the bottom.
package struct LogOverlay: Sendable {
    /// Every message, oldest first.
    package var messages: [String]

    /// A log of `messages`.
    package init(messages: [String]) { self.messages = messages }

    /// Draws the box over `area`, the newest messages that fit at the bottom.
    package func render(into buffer: inout Buffer, area: Rect) {
        let box = Box.centred(width: area.width - 4, height: area.height - 2, in: area)
        let inside = Box(title: "messages (\(messages.count))").render(into: &buffer, area: box)
        guard !inside.isEmpty else { return }
        if messages.isEmpty {
            Centered(text: "no messages", style: Style(.dim, dim: true)).render(into: &buffer, area: inside)
            return
        }
        let shown = messages.suffix(inside.height)
        for (row, message) in shown.enumerated() {
            buffer.write(message, x: inside.x + 1, y: inside.y + row, maxWidth: inside.width - 2)
        }
    }
}
