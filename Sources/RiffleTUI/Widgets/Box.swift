/// A bordered box with a title, its inside cleared: the frame of the help and log overlays.
package struct Box: Sendable {
    /// Drawn in the top border.
    package var title: String

    /// A box titled `title`.
    package init(title: String) { self.title = title }

    /// A rectangle of `width` x `height` (each cut to `area`) centred in `area`.
    package static func centred(width: Int, height: Int, in area: Rect) -> Rect {
        let w = min(width, area.width)
        let h = min(height, area.height)
        return Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
    }

    /// Draws the border in `area` and returns the inside.
    @discardableResult
    package func render(into buffer: inout Buffer, area: Rect) -> Rect {
        guard area.width >= 2, area.height >= 2 else { return Rect(x: area.x, y: area.y, width: 0, height: 0) }
        let style = Style(.accent)
        buffer.fill(area)
        for x in area.x + 1..<area.maxX - 1 {
            buffer.set(x, area.y, Cell("─", style: style))
            buffer.set(x, area.maxY - 1, Cell("─", style: style))
        }
        for y in area.y + 1..<area.maxY - 1 {
            buffer.set(area.x, y, Cell("│", style: style))
            buffer.set(area.maxX - 1, y, Cell("│", style: style))
        }
        buffer.set(area.x, area.y, Cell("┌", style: style))
        buffer.set(area.maxX - 1, area.y, Cell("┐", style: style))
        buffer.set(area.x, area.maxY - 1, Cell("└", style: style))
        buffer.set(area.maxX - 1, area.maxY - 1, Cell("┘", style: style))
        if !title.isEmpty {
            buffer.write(" \(title) ", x: area.x + 2, y: area.y, maxWidth: area.width - 4, style: Style(.accent, bold: true))
        }
        return Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: area.height - 2)
    }
}
