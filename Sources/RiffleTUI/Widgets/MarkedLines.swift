import RiffleKit

/// A comment's text as wrapped lines of styled pieces: italics slanted, code and preformatted
/// blocks in the code role, quotes and link numbers dim, and a line that starts with ">" (a quote
/// written by hand, as on HN) dim too.
///
/// The text is wrapped as plain text (`TextWrap`), then each wrapped line is laid back over the
/// text to find the style of each of its characters: wrapping only drops the spaces it breaks at,
/// so the two walk together, a space of the text being skipped where the line has none.
enum MarkedLines {
    /// `lines` (`text` wrapped) in the styles `marks` give their characters.
    /// - Parameter looked: how many characters of `text` the wrapping looked at, at most (it reads
    ///   a bounded prefix of a huge text, and so does this).
    static func styled(_ lines: [String], of text: String, marks: [MarkedText.Mark], looked: Int = .max) -> [[StyledLine.Span]] {
        guard !marks.isEmpty else { return lines.map { [StyledLine.Span($0, base(of: $0))] } }
        let characters = Array(text.prefix(looked))
        // The kinds over each scalar (marks count scalars), then over each character (wrapping counts those).
        let scalarCount = characters.reduce(0) { $0 + $1.unicodeScalars.count }
        var masks = [Kinds](repeating: [], count: scalarCount)
        for mark in marks {
            let lower = max(0, mark.range.lowerBound), upper = min(scalarCount, mark.range.upperBound)
            guard lower < upper else { continue }
            for offset in lower..<upper { masks[offset].insert(Kinds(mark.kind)) }
        }
        var kinds: [Kinds] = []
        kinds.reserveCapacity(characters.count)
        var offset = 0
        for character in characters {
            kinds.append(masks[offset])
            offset += character.unicodeScalars.count
        }
        var position = 0
        return lines.map { line in
            let lineBase = base(of: line)
            var spans: [StyledLine.Span] = []
            for character in line {
                while position < characters.count, characters[position] != character, characters[position].isWhitespace,
                      !character.isWhitespace {
                    position += 1
                }
                let style: Style
                if position < characters.count, !(characters[position].isWhitespace != character.isWhitespace) {
                    style = Self.style(kinds[position], on: lineBase)
                    position += 1
                } else {
                    style = lineBase
                }
                if let last = spans.last, last.style == style {
                    spans[spans.count - 1].text.append(character)
                } else {
                    spans.append(StyledLine.Span(String(character), style))
                }
            }
            return spans.isEmpty ? [StyledLine.Span("", lineBase)] : spans
        }
    }

    /// A line's own style: dim when it is a quote written with ">".
    static func base(of line: String) -> Style { line.hasPrefix(">") ? Style(.dim, dim: true) : Style() }

    /// The kinds of mark over a character, as bits.
    struct Kinds: OptionSet {
        let rawValue: UInt8
        static let italic = Kinds(rawValue: 1), code = Kinds(rawValue: 2), dim = Kinds(rawValue: 4)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ kind: MarkedText.Kind) {
            switch kind {
            case .italic: self = .italic
            case .code, .preformatted: self = .code
            case .quote, .link: self = .dim
            }
        }
    }

    /// The style of a character under marks of `kinds`: slanted, in the code role, dim.
    static func style(_ kinds: Kinds, on base: Style) -> Style {
        var style = base
        if kinds.contains(.italic) { style.italic = true }
        if kinds.contains(.code) { style.role = .code }
        if kinds.contains(.dim) {
            if style.role == .normal { style.role = .dim }
            style.dim = true
        }
        return style
    }
}
