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
        var text = s
        // Byte-wise: per-scalar appends made `dump` of long bodies take 70 µs an item.
        text.withUTF8 { bytes in
            let plain = !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }
            if plain {
                out += "\""
                out += s
                out += "\""
                return
            }
            var escaped: [UInt8] = [0x22]
            escaped.reserveCapacity(bytes.count + 16)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case 0x22: escaped += [0x5C, 0x22]
                case 0x5C: escaped += [0x5C, 0x5C]
                case 0x0A: escaped += [0x5C, 0x6E]
                case 0x0D: escaped += [0x5C, 0x72]
                case 0x09: escaped += [0x5C, 0x74]
                case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    // U+2028/9 escaped too, as some JavaScript readers choke on them.
                    escaped += Array("\\u202\(bytes[i + 2] == 0xA8 ? "8" : "9")".utf8)
                    i += 2
                case _ where b < 0x20 || b == 0x7F:
                    let hex = String(b, radix: 16)
                    escaped += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: escaped.append(b)
                }
                i += 1
            }
            escaped.append(0x22)
            out += String(decoding: escaped, as: UTF8.self)
        }
    }
}
