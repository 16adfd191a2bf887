import RiffleKit

/// Turns items into the lines `riffle dump` prints, safe for a terminal: TSV cells go through the
/// browser's `Sanitizer`, JSON escapes C1 and bidirectional controls (`TerminalSafe`).
struct DumpOutput {
    let format: DumpOptions.Format
    let fields: [String]?
    /// The split form of `fields`, done once rather than per item.
    private let paths: [JSONPath]
    private var itemsWritten = 0

    init(format: DumpOptions.Format, fields: [String]?) {
        self.format = format
        self.fields = fields
        paths = (fields ?? []).map { JSONPath($0) }
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
                    JSONWriter.writeString(name, into: &text)
                    text += ":"
                    JSONWriter.write(value(item, field: i) ?? .null, into: &text)
                }
                text += "}"
            } else {
                JSONWriter.write(item.fields, into: &text)
            }
            text = TerminalSafe.json(text)
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
    /// spaces so each item stays one line of the right number of columns, and every other control
    /// a visible placeholder (`Sanitizer.clean`).
    static func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return ""
        case .object?, .array?:
            var text = ""
            JSONWriter.write(value!, into: &text)
            return TerminalSafe.text(text)
        case let scalar?: return TerminalSafe.text(scalar.scalarText ?? "")
        }
    }
}
