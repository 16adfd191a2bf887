/// How a cell is drawn. Colours are roles, not numbers: the backend maps them to the theme.
public struct Style: Sendable, Hashable {
    /// What a piece of text is, so a theme can colour it.
    public enum Role: UInt8, Sendable, Hashable {
        case normal, header, selection, dim, accent, status, toast, error, placeholder
    }

    public var role: Role
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool
    public var underline: Bool

    public init(_ role: Role = .normal, bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    public static let normal = Style()
}

/// One terminal cell.
///
/// A wide character (CJK, most emoji) occupies its cell and the next; the next cell is a
/// `continuation` and is never drawn on its own.
public struct Cell: Sendable, Hashable {
    /// The grapheme drawn here: one base character and its combining marks; " " when blank.
    public var symbol: String
    public var style: Style
    /// True for the right half of a wide character.
    public var isContinuation: Bool

    public init(_ symbol: String = " ", style: Style = .normal, isContinuation: Bool = false) {
        self.symbol = symbol
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}

/// A rectangle of cells.
public struct Rect: Sendable, Hashable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
}

/// The size of a terminal in cells.
public struct Size: Sendable, Hashable {
    public var width: Int, height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
