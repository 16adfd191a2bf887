/// A one-cell braille spinner; the frame advances with each tick while something loads.
package struct Spinner: Sendable {
    /// The frames, drawn in order.
    package static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// Which frame to draw (any integer; it wraps).
    package var frame: Int

    /// A spinner showing `frame`.
    package init(frame: Int) { self.frame = frame }

    /// The character for the current frame.
    package var symbol: Character {
        let count = Spinner.frames.count
        return Spinner.frames[((frame % count) + count) % count]
    }

    /// Draws the spinner at the top-left cell of `area`.
    package func render(into buffer: inout Buffer, area: Rect, style: Style = Style(.accent)) {
        guard !area.isEmpty else { return }
        buffer.write(String(symbol), x: area.x, y: area.y, maxWidth: 1, style: style)
    }
}
