/// The bottom line while the filter is typed: "/" and the query with a cursor, matches on the right.
package struct FilterBar: Sendable {
    /// What has been typed so far.
    package var query: String
    /// How many items match.
    package var matches: Int

    /// A bar for `query` with `matches` items matching.
    package init(query: String, matches: Int) {
        self.query = query
        self.matches = matches
    }

    /// Draws the bar on the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        buffer.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1))
        let count = matches == 1 ? "1 match" : "\(matches) matches"
        let countWidth = TextWidth.width(of: count) + 1
        let room = area.width - 3 - countWidth - 1  // "/", the cursor, margins
        // The end of a long query is what is being typed: show that end.
        var shown = Sanitizer.clean(query)
        while TextWidth.width(of: shown) > room, !shown.isEmpty { shown.removeFirst() }
        var x = area.x + 1
        x += buffer.write("/", x: x, y: area.y, style: Style(.accent, bold: true))
        x += buffer.write(shown, x: x, y: area.y)
        buffer.set(x, area.y, Cell(" ", style: Style(.normal, reverse: true)))
        buffer.write(count, x: area.maxX - countWidth, y: area.y, style: Style(.dim, dim: true))
    }
}
