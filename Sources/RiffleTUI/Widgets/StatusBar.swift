/// The bottom line: facts about the page on the left, an activity note and spinner on the right.
package struct StatusBar: Sendable {
    /// The facts, drawn separated by " · ", e.g. ["page 2", "20 items", "network", "fetched 3m ago"].
    package var facts: [String]
    /// Drawn at the right end with a spinner while something loads, e.g. "loading page 3"; nil when idle.
    package var activity: String?
    /// The spinner's frame.
    package var spinnerFrame: Int
    /// Indices of `facts` to leave out, first one first, when they do not all fit: a whole fact
    /// dropped reads better than every fact cut short.
    package var dropOrder: [Int]

    /// A bar of `facts`, with `activity` and a spinner on the right while loading.
    package init(facts: [String], activity: String? = nil, spinnerFrame: Int = 0, dropOrder: [Int] = []) {
        self.facts = facts
        self.activity = activity
        self.spinnerFrame = spinnerFrame
        self.dropOrder = dropOrder
    }

    /// The left-hand text with every fact.
    package var text: String { facts.joined(separator: " · ") }

    /// The left-hand text that fits `width` columns, leaving facts out in `dropOrder`.
    package func text(fitting width: Int) -> String {
        var dropped: Set<Int> = []
        var line = text
        for index in dropOrder where TextWidth.width(of: line) > width {
            dropped.insert(index)
            line = facts.indices.filter { !dropped.contains($0) }.map { facts[$0] }.joined(separator: " · ")
        }
        return line
    }

    /// Draws the bar on the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let style = Style(.status)
        buffer.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1), style: style)
        var right = area.maxX
        if let activity {
            // "<activity> ⠋ ": the spinner keeps its place at the edge whatever the text's width.
            right -= 2
            Spinner(frame: spinnerFrame).render(into: &buffer, area: Rect(x: right, y: area.y, width: 1, height: 1),
                                                style: Style(.status, bold: true))
            let width = TextWidth.width(of: activity)
            // The page facts matter more than the activity note when space is short.
            if area.x + 1 + TextWidth.width(of: text(fitting: right - area.x - 2)) + 2 + width + 1 <= right {
                right -= width + 1
                buffer.write(activity, x: right, y: area.y, style: style)
            }
        }
        let room = max(0, right - area.x - 2)
        buffer.write(text(fitting: room), x: area.x + 1, y: area.y, maxWidth: room, style: style)
    }
}
