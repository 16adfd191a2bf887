/// How a cell is drawn. Colours are roles, not numbers: the backend maps them to the theme.
package struct Style: Sendable, Hashable {
    /// What a piece of text is, so a theme can colour it.
    package enum Role: UInt8, Sendable, Hashable {
        case normal, header, selection, dim, accent, status, toast, error, placeholder
        /// A comment's indent guides, by depth: the colours cycle through these six.
        case depth1, depth2, depth3, depth4, depth5, depth6
        /// Code in a comment (`<code>`, `<pre>`): plain where there are no colours.
        case code

        /// The guide colour of nesting `level` (0 for a reply to a top-level comment's guide), cycling.
        package static func depth(_ level: Int) -> Role {
            [.depth1, .depth2, .depth3, .depth4, .depth5, .depth6][((level % 6) + 6) % 6]
        }
    }

    package var role: Role
    package var bold: Bool
    package var reverse: Bool
    package var dim: Bool
    package var underline: Bool
    /// Slanted, where the terminal can (ncurses' `A_ITALIC`): `<i>` and `<em>` in comments.
    package var italic: Bool

    package init(_ role: Role = .normal, bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false,
                 italic: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
        self.italic = italic
    }

    package static let normal = Style()
}

/// One terminal cell.
///
/// A wide character (CJK, most emoji) occupies its cell and the next; the next cell is a
/// `continuation` and is never drawn on its own.
package struct Cell: Sendable, Hashable {
    /// The grapheme drawn here: one base character and its combining marks; " " when blank.
    package var symbol: String
    package var style: Style
    /// True for the right half of a wide character.
    package var isContinuation: Bool

    package init(_ symbol: String = " ", style: Style = .normal, isContinuation: Bool = false) {
        self.symbol = symbol
        self.style = style
        self.isContinuation = isContinuation
    }

    package static let blank = Cell()
}

/// A rectangle of cells.
package struct Rect: Sendable, Hashable {
    package var x: Int, y: Int, width: Int, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    package var maxX: Int { x + width }
    package var maxY: Int { y + height }
    package var isEmpty: Bool { width == 0 || height == 0 }
}

/// The size of a terminal in cells.
package struct Size: Sendable, Hashable {
    package var width: Int, height: Int
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
