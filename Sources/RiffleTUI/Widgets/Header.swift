/// The top line: the feed's title on an accent bar.
package struct Header: Sendable {
    /// The feed's (or item's) name.
    package var title: String
    /// Dim text at the right end, e.g. "? help".
    package var hint: String

    /// A header for `title`, with an optional hint at the right.
    package init(title: String, hint: String = "") {
        self.title = title
        self.hint = hint
    }

    /// Draws the header on the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        buffer.fill(row, style: Style(.header))
        let hintWidth = hint.isEmpty ? 0 : TextWidth.width(of: hint) + 1
        // The title wins when space is short: the hint is only drawn when both fit.
        // Measured on what can show: a title of megabytes costs what fits.
        let showHint = hintWidth > 0 && TextWidth.width(of: title.prefix(area.width * 4 + 16)) + 2 + hintWidth <= area.width
        let titleWidth = area.width - 1 - (showHint ? hintWidth : 0)
        buffer.write(title, x: area.x + 1, y: area.y, maxWidth: titleWidth, style: Style(.header, bold: true))
        if showHint {
            buffer.write(hint, x: area.maxX - hintWidth, y: area.y, style: Style(.header, dim: true))
        }
    }
}
