import Foundation
import RiffleKit

/// Turns items into the lines `riffle dump` prints, safe for a terminal: TSV cells go through the
/// browser's `Sanitizer`, JSON escapes C1 and bidirectional controls (`JSONLineWriter`).
///
/// A field is either one of the parts the browser shows (`extracted`: `title`, `link`, `author`,
/// `time`, `score`, `id`, `comments`, exactly as the list draws them and `y` copies the link), or a
/// dotted path into the item as the server sent it (`user.login`, `labels.0.name`; `.title` for the
/// item's own `title` member).
struct DumpOutput {
    /// The parts of an item the browser shows, by the names `--fields` gives them.
    enum Extracted: String, CaseIterable {
        case title, link, author, time, score, id, comments
    }

    let format: DumpOptions.Format
    let fields: [String]?
    /// Per field, the browser's part it names, or the path it reads.
    private let columns: [Column]
    private var itemsWritten = 0

    private enum Column {
        case part(Extracted)
        case path(JSONPath)
    }

    /// - Parameter extracted: whether the names of `Extracted` are the browser's parts (dump) or paths
    ///   like any other (search, whose items carry their fields under those names).
    init(format: DumpOptions.Format, fields: [String]?, extracted: Bool = true) {
        self.format = format
        self.fields = fields
        columns = (fields ?? []).map { name in
            if extracted, let part = Extracted(rawValue: name) { return .part(part) }
            return .path(JSONPath(name))
        }
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
        var out = JSONLineWriter()
        append(item, to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Appends one item's text to `out`, with its line ending (and the comma before it, in a JSON
    /// array). A whole item read from a page is copied from the page's bytes (`JSONLineWriter`),
    /// never built as a value first.
    mutating func append(_ item: Item, to out: inout JSONLineWriter) {
        defer { itemsWritten += 1 }
        switch format {
        case .tsv:
            out.append((0..<columns.count).map { Self.cell(value(item, field: $0)) }.joined(separator: "\t") + "\n")
        case .jsonl, .json:
            if format == .json { out.append(itemsWritten == 0 ? "\n  " : ",\n  ") }
            if let fields {
                out.append("{")
                for (i, name) in fields.enumerated() {
                    if i > 0 { out.append(",") }
                    out.writeText(name)
                    out.append(":")
                    out.write(value(item, field: i) ?? .null)
                }
                out.append("}")
            } else if let node = item.fieldsNode {
                out.write(node)
            } else {
                out.write(item.fields)
            }
            if format == .jsonl { out.append("\n") }
        }
    }

    /// Field `i` of the item: the part the browser shows, or what the item holds at the path.
    private func value(_ item: Item, field i: Int) -> JSONValue? {
        switch columns[i] {
        case .path(let path): item.fields.value(at: path)
        case .part(.title): .string(item.title)
        case .part(.link): Self.link(item.url)
        case .part(.author): item.author.map(JSONValue.string)
        case .part(.time): item.createdAt.map { .string(Self.time($0)) }
        case .part(.score): item.score.map { .number(String($0)) }
        case .part(.id): item.id.map(JSONValue.string)
        case .part(.comments): item.comments.map { .number(String($0)) }
        }
    }

    /// A link as `y` copies it and `o` opens it: one inert word of printable ASCII meaning the same
    /// URL (`InertLink`), so a script handing it to a browser or a shell gets what the browser would;
    /// nil when nothing of it is left.
    static func link(_ raw: String?) -> JSONValue? {
        guard let link = raw.map(InertLink.encode), !link.isEmpty else { return nil }
        return .string(link)
    }

    /// An instant as ISO 8601 in UTC, with milliseconds when it has them.
    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        if date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970 {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
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
