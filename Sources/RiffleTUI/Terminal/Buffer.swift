/// A grid of cells: what one frame looks like. A plain value, so tests compare it as text.
package struct Buffer: Sendable, Equatable, CustomStringConvertible {
    package private(set) var size: Size
    package private(set) var cells: [Cell]

    package init(size: Size) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        cells = Array(repeating: .blank, count: self.size.width * self.size.height)
    }

    package var area: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    package subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
    }

    /// Puts one cell, keeping wide characters whole: overwriting either half blanks the other half.
    package mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        let i = y * size.width + x
        if cells[i].isContinuation, x > 0 { cells[i - 1] = Cell(style: cells[i - 1].style) }
        if x + 1 < size.width, cells[i + 1].isContinuation { cells[i + 1] = Cell(style: cells[i + 1].style) }
        cells[i] = cell
    }

    /// Fills `rect` with blanks of `style`.
    package mutating func fill(_ rect: Rect, style: Style = .normal) {
        for y in max(0, rect.y)..<min(size.height, rect.maxY) {
            for x in max(0, rect.x)..<min(size.width, rect.maxX) { set(x, y, Cell(style: style)) }
        }
    }

    /// Writes `text` at (x, y), sanitised, never past `maxWidth` columns (nor the buffer's edge);
    /// text that does not fit ends in "…". Never wraps.
    /// - Returns: the number of columns written.
    @discardableResult
    package mutating func write(_ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .normal) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        let limit = min(maxWidth ?? Int.max, size.width - x)
        guard limit > 0 else { return 0 }
        // Only what can show is sanitised and measured, so a title of megabytes costs what fits: no
        // more graphemes than a few per column (zero-width ones take none, and are bounded too).
        let head = text.prefix(limit &* 4 &+ 16)
        let shown = TextWidth.truncate(Sanitizer.clean(String(head)), to: limit, continues: head.endIndex < text.endIndex)
        var column = x
        for character in shown {
            let w = TextWidth.width(of: character)
            if w == 0 { continue }
            if column + w > x + limit { break }
            set(column, y, Cell(String(character), style: style))
            if w == 2 { set(column + 1, y, Cell("", style: style, isContinuation: true)) }
            column += w
        }
        return column - x
    }

    /// Each row as text (wide characters once, continuations skipped), trailing spaces kept.
    package var lines: [String] {
        (0..<size.height).map { y in
            var line = ""
            for x in 0..<size.width where !self[x, y].isContinuation { line += self[x, y].symbol }
            return line
        }
    }

    /// The rows with trailing spaces removed, joined by newlines: what a failing test prints.
    package var description: String {
        lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }
}
