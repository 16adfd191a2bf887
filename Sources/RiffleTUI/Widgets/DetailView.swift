import RiffleKit

/// One item in full: every field as "key: value" (nested objects indented, long text wrapped), or its
/// raw JSON pretty-printed. Scrolls by line.
package struct DetailView: Sendable {
    /// The lines, already wrapped to the width they are drawn at.
    package var lines: [StyledLine]
    /// The first line drawn.
    package var scroll: Int

    /// A view of `lines` from line `scroll`.
    package init(lines: [StyledLine], scroll: Int) {
        self.lines = lines
        self.scroll = scroll
    }

    /// The lines for `item` wrapped to `width` columns.
    package static func lines(for item: Item, width: Int, raw: Bool) -> [StyledLine] {
        let width = max(4, width)
        if raw {
            return JSONFormatter.pretty(item.fields).split(separator: "\n").flatMap { line in
                let indent = line.prefix { $0 == " " }.count
                return wrapped(String(line.dropFirst(indent)), indent: indent, hang: 2, width: width, style: .normal)
            }
        }
        return fieldLines(item.fields, indent: 0, width: width)
    }

    static func fieldLines(_ value: JSONValue, indent: Int, width: Int) -> [StyledLine] {
        let members: [(String, JSONValue)]
        switch value {
        case .object(let object): members = object.members.map { ($0.key, $0.value) }
        case .array(let elements): members = elements.enumerated().map { ("[\($0.offset)]", $0.element) }
        default: return wrapped(scalarText(value), indent: indent, hang: 0, width: width, style: .normal)
        }
        let keyStyle = Style(.accent, bold: true)
        var lines: [StyledLine] = []
        for (key, child) in members {
            let label = Sanitizer.clean(key) + ":"
            let labelWidth = TextWidth.width(of: label)
            if isContainer(child) {
                lines.append(StyledLine([.init(String(repeating: " ", count: indent)), .init(label, keyStyle)]))
                lines += fieldLines(child, indent: indent + 2, width: width)
                continue
            }
            let text = scalarText(child)
            let valueStyle = child.isNull ? Style(.dim, dim: true) : Style.normal
            let first = width - indent - labelWidth - 1
            // A long key leaves too little room beside it for long text: the value goes under it instead.
            if first < 12 && TextWidth.width(of: text) > first {
                lines.append(StyledLine([.init(String(repeating: " ", count: indent)), .init(label, keyStyle)]))
                lines += wrapped(text, indent: indent + 2, hang: 0, width: width, style: valueStyle)
                continue
            }
            let parts = TextWrap.wrap(text, width: first, continuationWidth: width - indent - 2)
            lines.append(StyledLine([.init(String(repeating: " ", count: indent)), .init(label, keyStyle),
                                     .init(" " + parts[0], valueStyle)]))
            let hang = String(repeating: " ", count: indent + 2)
            lines += parts.dropFirst().map { StyledLine([.init(hang), .init($0, valueStyle)]) }
        }
        return lines
    }

    /// `text` wrapped to fit after `indent` columns, the lines after the first indented `hang` more.
    static func wrapped(_ text: String, indent: Int, hang: Int, width: Int, style: Style) -> [StyledLine] {
        let parts = TextWrap.wrap(text, width: max(1, width - indent), continuationWidth: max(1, width - indent - hang))
        return parts.enumerated().map { i, part in
            StyledLine([.init(String(repeating: " ", count: indent + (i == 0 ? 0 : hang))), .init(part, style)])
        }
    }

    static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let o): o.count > 0
        case .array(let a): !a.isEmpty
        default: false
        }
    }

    static func scalarText(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .string(let s): s.isEmpty ? "\"\"" : s
        case .object: "{}"
        case .array: "[]"
        default: value.scalarText ?? ""
        }
    }

    /// Draws the lines from `scroll`, one per row of `area`, with a one-column margin.
    package func render(into buffer: inout Buffer, area: Rect) {
        for row in 0..<area.height {
            let index = scroll + row
            guard index >= 0, index < lines.count else { break }
            lines[index].render(into: &buffer, x: area.x + 1, y: area.y + row, maxX: area.maxX - 1)
        }
    }
}
