/// The bottom line while the filter is typed: "/" and the query with a cursor, matches on the right.
package struct FilterBar: Sendable {
    /// What has been typed so far, with its cursor.
    package var field: TextField
    /// How many items match.
    package var matches: Int

    /// A bar for `field` with `matches` items matching.
    package init(field: TextField, matches: Int) {
        self.field = field
        self.matches = matches
    }

    /// Draws the bar on the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        buffer.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1))
        let count = matches == 1 ? "1 match" : "\(matches) matches"
        let countWidth = TextWidth.width(of: count) + 1
        let room = area.width - 2 - countWidth - 1  // "/" and margins
        var x = area.x + 1
        x += buffer.write("/", x: x, y: area.y, style: Style(.accent, bold: true))
        field.render(into: &buffer, x: x, y: area.y, width: room)
        buffer.write(count, x: area.maxX - countWidth, y: area.y, style: Style(.dim, dim: true))
    }
}
