import CNcursesw
import RiffleTUI

/// How one cell of a `Buffer` reaches the terminal.
///
/// ncurses keeps a cell as a `cchar_t`: `setcchar` stores one spacing character and at most
/// `CCHARW_MAX - 1` (4) zero-width ones after it, stops at the first code point with a width, and
/// measures the cell by `wcwidth` of the first one. A flag (two regional indicators), a ZWJ sequence
/// (👨‍👩‍👧‍👦, seven code points), a skin tone (👍🏽: the modifier has a width) and an emoji with
/// U+FE0F (❤️: `wcwidth` says 1, the buffer 2) do not fit that model, so they are `direct`: ncurses
/// holds blanks of the right width in their place (its idea of every column stays true), and the
/// backend writes the whole cluster there itself, right after ncurses's refresh.
enum Glyph: Equatable {
    /// Characters for `setcchar` (NUL not included): ncurses draws them and measures them as the buffer did.
    case cell([wchar_t])
    /// A cluster written straight to the terminal over `width` blank cells. A terminal that does not
    /// join the cluster may draw it `reach` columns wide: the cells it then covers are written again.
    case direct(String, width: Int, reach: Int)

    /// More code points than any real cluster has (a kiss with two skin tones has 10): longer ones are
    /// stacked combining marks, drawn as ncurses keeps them, so hostile text cannot make a cell big.
    static let maxDirectScalars = 32

    /// The glyph for a cell holding `symbol`, `width` columns wide, at column `x` of a row of
    /// `rowWidth` columns.
    /// - Parameter canWriteDirectly: whether the terminal can place the cursor (`cup`); a cluster
    ///   whose widest drawing would pass the row's end (`rowWidth`) is never written directly either,
    ///   so the terminal can never wrap or scroll.
    static func forCell(_ symbol: String, width: Int, x: Int, rowWidth: Int, canWriteDirectly: Bool) -> Glyph {
        // Fast path: one ASCII character, what most cells hold.
        let all = symbol.unicodeScalars
        if let first = all.first, first.value < 0x7F, all.index(after: all.startIndex) == all.endIndex {
            return .cell([wchar_t(bitPattern: first.value)])
        }
        // A joiner at the end joins nothing here, but a terminal would join it to whatever it draws next.
        var symbol = symbol
        while symbol.unicodeScalars.count > 1, symbol.unicodeScalars.last?.value == 0x200D { symbol.unicodeScalars.removeLast() }
        let scalars = symbol.unicodeScalars
        if scalars.isEmpty { return .cell([32]) }
        if let held = heldWhole(scalars, width: width) { return .cell(held) }
        let reach = max(width, scalars.reduce(0) { $0 + max(0, TextWidth.columns(of: $1)) })
        if canWriteDirectly, scalars.count <= maxDirectScalars, x + reach <= rowWidth {
            return .direct(symbol, width: width, reach: reach)
        }
        return .cell(firstCharacter(scalars, width: width))
    }

    /// The cluster's code points when `setcchar` keeps every one and ncurses measures them as `width`.
    private static func heldWhole(_ scalars: String.UnicodeScalarView, width: Int) -> [wchar_t]? {
        guard scalars.count <= Int(CCHARW_MAX), let first = scalars.first,
              TextWidth.columns(of: first) == width,
              scalars.dropFirst().allSatisfy({ TextWidth.columns(of: $0) == 0 && $0.value != 0x200D }) else { return nil }
        return scalars.map { wchar_t(bitPattern: $0.value) }
    }

    /// What ncurses can hold of a cluster that cannot be written whole: its first character and the
    /// marks on it, stopping at a joiner (a trailing ZWJ would join whatever the terminal draws next).
    /// Blank when the first character's width is not the cell's, so the columns after it stay put.
    private static func firstCharacter(_ scalars: String.UnicodeScalarView, width: Int) -> [wchar_t] {
        guard let first = scalars.first, TextWidth.columns(of: first) == width else {
            return width == 2 ? [0x3000] : [32]  // an ideographic space is one blank two columns wide
        }
        var held = [wchar_t(bitPattern: first.value)]
        for scalar in scalars.dropFirst() {
            guard held.count < Int(CCHARW_MAX), scalar.value != 0x200D, TextWidth.columns(of: scalar) == 0 else { break }
            held.append(wchar_t(bitPattern: scalar.value))
        }
        return held
    }
}

extension Glyph {
    /// Text written at a cell, outside ncurses.
    struct DirectWrite: Equatable {
        var x: Int, y: Int
        var text: String
    }

    /// The glyph for the cell at (x, y) of `buffer`, as wide as the buffer made it. The bottom-right
    /// cell is never written directly: a terminal without a pending-wrap state would scroll.
    static func at(_ x: Int, _ y: Int, in buffer: Buffer, canWriteDirectly: Bool) -> Glyph {
        let width = x + 1 < buffer.size.width && buffer[x + 1, y].isContinuation ? 2 : 1
        let rowWidth = buffer.size.width - (y == buffer.size.height - 1 ? 1 : 0)
        return forCell(buffer[x, y].symbol, width: width, x: x, rowWidth: rowWidth, canWriteDirectly: canWriteDirectly)
    }

    /// What to write after ncurses drew `rows`, left to right: every `direct` cluster on them (ncurses
    /// may have rewritten its blanks), each followed by the cells up to its `reach`, so a terminal
    /// that drew it wider than the buffer has its next columns put back as the buffer has them
    /// (it then shows the cluster's first part: 👍 for 👍🏽 in tmux 3.3, never shifted text).
    static func directWrites(in buffer: Buffer, rows: [Int], canWriteDirectly: Bool) -> [DirectWrite] {
        var writes: [DirectWrite] = []
        for y in rows {
            var x = 0
            while x < buffer.size.width {
                guard case .direct(let text, let width, let reach) = at(x, y, in: buffer, canWriteDirectly: canWriteDirectly) else {
                    x += 1
                    continue
                }
                writes.append(DirectWrite(x: x, y: y, text: text))
                var next = x + width
                while next < x + reach {
                    if buffer[next, y].isContinuation { next += 1; continue }
                    guard case .cell(let characters) = at(next, y, in: buffer, canWriteDirectly: canWriteDirectly) else { break }
                    let scalars = characters.compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }
                    writes.append(DirectWrite(x: next, y: y, text: String(String.UnicodeScalarView(scalars))))
                    next += 1
                }
                x = next
            }
        }
        return writes
    }
}
