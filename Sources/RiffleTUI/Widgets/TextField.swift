/// A line being typed (a prompt's text, the filter's query) and its cursor, edited with readline's
/// keys: the text is kept as what stands before the cursor and what stands after it, so a character
/// typed joins the one before it as the terminal would show them (an accent, the second half of a
/// flag) and every move and deletion takes a whole character (a CJK ideograph, an emoji sequence).
package struct TextField: Sendable, Equatable {
    /// What stands before the cursor.
    package private(set) var beforeCursor: String
    /// What stands after the cursor (under it first).
    package private(set) var afterCursor: String

    /// `text`, the cursor at its end.
    package init(_ text: String = "") {
        beforeCursor = text
        afterCursor = ""
    }

    /// The whole line.
    package var text: String { beforeCursor + afterCursor }

    /// Applies an editing key; false for a key that edits no line (Enter, Esc, ↑, a control key
    /// readline gives no meaning here), which is the caller's. Backspace at the start, Delete at
    /// the end and a move past an end change nothing and are taken all the same.
    ///
    /// ```
    /// character   typed before the cursor        Ctrl-U  what is before the cursor goes
    /// Backspace   the character before goes      Ctrl-K  what is after the cursor goes
    /// Delete      the character under it goes    Ctrl-W  the word before the cursor goes
    ///             (at the end, the one before)
    /// ← → ^B ^F   a character back / on          Ctrl-A / Home, Ctrl-E / End: to the start / end
    /// ```
    package mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            beforeCursor.append(character)
        case .backspace, .control("h"):
            if !beforeCursor.isEmpty { beforeCursor.removeLast() }
        case .delete:
            // At the end of the line, the character before: what Delete did before the cursor could move.
            if !afterCursor.isEmpty { afterCursor.removeFirst() } else if !beforeCursor.isEmpty { beforeCursor.removeLast() }
        case .left, .control("b"):
            if let last = beforeCursor.popLast() { afterCursor.insert(last, at: afterCursor.startIndex) }
        case .right, .control("f"):
            if let first = afterCursor.first {
                afterCursor.removeFirst()
                beforeCursor.append(first)
            }
        case .home, .control("a"):
            afterCursor = text
            beforeCursor = ""
        case .end, .control("e"):
            beforeCursor = text
            afterCursor = ""
        case .control("u"):
            beforeCursor = ""
        case .control("k"):
            afterCursor = ""
        case .control("w"):
            // readline's unix-word-rubout: the blanks before the cursor, then the word before them.
            while let last = beforeCursor.last, last.isWhitespace { beforeCursor.removeLast() }
            while let last = beforeCursor.last, !last.isWhitespace { beforeCursor.removeLast() }
        default:
            return false
        }
        return true
    }

    /// The editing keys as the help (`?`) lists them, each line with what it does: every key `edit`
    /// takes but a character typed and Backspace, and only those (Home and End move the list while
    /// the filter is open, so ^a and ^e stand for them).
    package static let help: [(keys: [Key], action: String)] = [
        ([.left, .right, .control("b"), .control("f")], "a character back / on"),
        ([.control("a"), .control("e")], "to the start / end"),
        ([.control("u"), .control("k")], "delete before / after cursor"),
        ([.control("w")], "delete the word before"),
        ([.delete], "delete under the cursor"),
    ]

    /// Draws the line from `x` on row `y` within `width` columns, the cursor a reversed cell (the
    /// character under it, else a blank). A line too long for the room shows the part around the
    /// cursor: what is before it first, as that is what is being typed.
    /// - Returns: the columns drawn.
    @discardableResult
    package func render(into buffer: inout Buffer, x: Int, y: Int, width: Int) -> Int {
        guard width > 0 else { return 0 }
        let under = afterCursor.first.map { Sanitizer.clean(String($0)) } ?? " "
        let cursorWidth = max(1, TextWidth.width(of: under))
        var before = Sanitizer.clean(beforeCursor)
        while !before.isEmpty, TextWidth.width(of: before) + cursorWidth > width { before.removeFirst() }
        var column = x + buffer.write(before, x: x, y: y, maxWidth: width)
        guard column + cursorWidth <= x + width else { return column - x }
        buffer.set(column, y, Cell(under, style: Style(.normal, reverse: true)))
        if cursorWidth == 2 { buffer.set(column + 1, y, Cell("", style: Style(.normal, reverse: true), isContinuation: true)) }
        column += cursorWidth
        let rest = String(afterCursor.dropFirst())
        let room = x + width - column
        if room > 0, !rest.isEmpty { column += buffer.write(rest, x: column, y: y, maxWidth: room) }
        return column - x
    }
}
