import RiffleKit

/// Turns items into the lines `riffle dump` prints.
struct DumpOutput {
    let format: DumpOptions.Format
    let fields: [String]?
    /// The split form of `fields`, done once rather than per item.
    private let paths: [[String]]
    private var itemsWritten = 0

    init(format: DumpOptions.Format, fields: [String]?) {
        self.format = format
        self.fields = fields
        paths = (fields ?? []).map { $0.split(separator: ".").map(String.init) }
    }

    /// What goes before the first item.
    var header: String { format == .json ? "[" : "" }

    /// What goes after the last item.
    func footer() -> String {
        guard format == .json else { return "" }
        return itemsWritten == 0 ? "]\n" : "\n]\n"
    }

    /// The text for one item, with its line ending (and the comma before it, in a JSON array).
    mutating func text(for item: Item) -> String {
        defer { itemsWritten += 1 }
        switch format {
        case .tsv:
            return (0..<paths.count).map { Self.cell(value(item, field: $0)) }.joined(separator: "\t") + "\n"
        case .jsonl, .json:
            var text = ""
            if let fields {
                text = "{"
                for (i, name) in fields.enumerated() {
                    if i > 0 { text += "," }
                    JSONText.append(.string(name), to: &text)
                    text += ":"
                    JSONText.append(value(item, field: i) ?? .null, to: &text)
                }
                text += "}"
            } else {
                JSONText.append(item.fields, to: &text)
            }
            if format == .jsonl { return text + "\n" }
            return (itemsWritten == 0 ? "\n  " : ",\n  ") + text
        }
    }

    /// The item's field at `paths[i]`; `title`, `url` and `id` fall back to what the list shows, so
    /// they work on every feed whatever its keys are called.
    private func value(_ item: Item, field i: Int) -> JSONValue? {
        if let found = item.fields.value(at: paths[i]) { return found }
        switch fields?[i] {
        case "title": return .string(item.title)
        case "url": return item.url.map(JSONValue.string)
        case "id": return item.id.map(JSONValue.string)
        default: return nil
        }
    }

    /// A TSV cell: scalars as text, containers as JSON, missing as empty; tabs and line breaks become
    /// spaces so each item stays one line of the right number of columns.
    static func cell(_ value: JSONValue?) -> String {
        var text: String
        switch value {
        case nil, .null?: return ""
        case .object?, .array?:
            text = ""
            JSONText.append(value!, to: &text)
        case let scalar?: text = scalar.scalarText ?? ""
        }
        if text.utf8.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 }) {
            text = String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        }
        return text
    }
}

/// Compact JSON text of a `JSONValue` (numbers exactly as received, keys in document order).
enum JSONText {
    static func append(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                append(element, to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += "," }
                appendString(member.key, to: &out)
                out += ":"
                append(member.value, to: &out)
            }
            out += "}"
        }
    }

    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                // Control characters escaped; U+2028/9 too, as some JavaScript readers choke on them.
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
