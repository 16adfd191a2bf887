import Foundation
import RiffleKit
import RiffleTUI

/// What `riffle inspect` prints: a feed's first page as riffle reads it, in words, then the feeds.json
/// entry that pins it. Every line goes through `TerminalSafe` (paths and reasons hold a server's keys).
struct InspectReport {
    let feed: Feed
    let page: Page
    let plan: FieldPlan
    let pagination: PaginationReport

    var text: String {
        var lines: [String] = []
        let source: String = switch page.source {
        case .network: "from the network"
        case .revalidated: "from the cache, revalidated"
        case .cache: "from the cache"
        case .stale: "from the cache, stale"
        }
        lines.append("\(feed.name): page 1, \(page.items.count) item\(page.items.count == 1 ? "" : "s"), \(source)")
        lines.append(feed.url(forPage: 1).absoluteString)
        if let replaced = Self.replacedLine(page.replacedCharacters) { lines.append(replaced) }
        lines.append("")
        lines += listLines
        lines.append("")
        lines += fieldLines
        lines.append("")
        lines += paginationLines
        // A `${NAME}` a URL or the server's answer holds percent-encoded reads as typed.
        var text = lines.map { TerminalSafe.text(Feed.showingReferences($0)) }.joined(separator: "\n") + "\n\n"
        let keys = feed.templateWithoutKeys.names
        if !keys.isEmpty {
            let host = feed.url(forPage: 1).host
            let settings = keys.map { "\(Feed.keyVariable(for: $0, host: host))=YOUR_KEY" }.joined(separator: " ")
            text += TerminalSafe.text("The URL's key (\(keys.joined(separator: ", "))) is not in the entry below, since riffle never "
                + "stores one: set it in the environment before opening the feed (export \(settings)).") + "\n\n"
        }
        text += "feeds.json, to pin what was found (edit the name):\n"
        text += TerminalSafe.json(JSONFormatter.pretty(pin)) + "\n"
        return text
    }

    /// Where the items are and why, and the arrays that came close.
    private var listLines: [String] {
        let list = plan.list
        var where_ = list.path.isEmpty ? "the top-level array" : "`\(list.path)`"
        if plan.listConfigured { where_ += " (the feed's `items`)" }
        var lines = ["Items: \(where_), \(list.count) element\(list.count == 1 ? "" : "s")"
            + (plan.unwrap.map { ", each opened at `\($0)`" } ?? "")]
        if !list.reasons.isEmpty { lines.append("  because: " + list.reasons.joined(separator: "; ")) }
        for other in plan.otherLists.prefix(3) {
            lines.append("  not `\(other.path)` (score \(Self.number(other.score))): " + other.reasons.joined(separator: "; "))
        }
        return lines
    }

    /// Each part: the path read, its evidence, and the runners-up (`FieldPlan.explanation`, which
    /// the browser's field picker shows too).
    private var fieldLines: [String] {
        var lines = ["Fields, judged on \(plan.sampled) of \(page.items.count) item\(page.items.count == 1 ? "" : "s"):"]
        let width = FieldPlan.Part.allCases.map(\.description.count).max() ?? 8
        let pad = String(repeating: " ", count: width + 4)
        for part in FieldPlan.Part.allCases {
            let name = part.description.padding(toLength: width, withPad: " ", startingAt: 0)
            for (i, line) in plan.explanation(of: part).enumerated() {
                lines.append(i == 0 ? "  \(name)  \(line)" : pad + line)
            }
        }
        return lines
    }

    /// How the pages follow one another.
    private var paginationLines: [String] {
        var lines = ["Pages: \(pagination.style)"]
        var extent: [String] = []
        if let count = pagination.pageCount { extent.append("\(count) page\(count == 1 ? "" : "s")") }
        if let total = pagination.totalItems { extent.append("\(total) item\(total == 1 ? "" : "s")") }
        lines.append("  in all: " + (extent.isEmpty ? "the page does not say" : extent.joined(separator: ", ")))
        if let cursor = pagination.cursor { lines.append("  cursor: \(cursor)") }
        lines.append("  next: " + (pagination.next ?? (pagination.isLast ? "none, page 1 is the last" : "not known")))
        lines.append("  end signals: " + (pagination.signals.isEmpty ? "none beside the items" : pagination.signals.joined(separator: "; ")))
        lines.append("  page 1 is " + (pagination.isLast ? "the last" : "not the last"))
        return lines
    }

    /// What the page held that was not text (a byte that is not UTF-8, half of a surrogate pair): each
    /// read as U+FFFD, so the page's other items still show; nil when there was none.
    static func replacedLine(_ count: Int) -> String? {
        guard count > 0 else { return nil }
        return "\(count) character\(count == 1 ? "" : "s") that \(count == 1 ? "was" : "were") not text (bytes that are not UTF-8, a lone surrogate) read as U+FFFD"
    }

    /// The feeds.json file holding one feed that reads as this plan does.
    var pin: JSONValue {
        // A key the URL held goes as a `query` reference to the environment (the file never holds it).
        let (url, keys) = feed.templateWithoutKeys
        var entry: [(key: String, value: JSONValue)] = [("url", .string(url))]
        let host = feed.url(forPage: 1).host
        let query = feed.query.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            + keys.map { ($0, JSONValue.string("${\(Feed.keyVariable(for: $0, host: host))}")) }
        if !plan.list.path.isEmpty { entry.append(("items", .string(plan.list.path.description))) }
        var fields: [(key: String, value: JSONValue)] = plan.choices.compactMap { choice in
            choice.path.map { (choice.part.description, .string($0.description)) }
        }
        if !feed.fields.subtitle.isEmpty { fields.append(("subtitle", .array(feed.fields.subtitle.map { .string($0.description) }))) }
        if !fields.isEmpty { entry.append(("fields", .object(JSONObject(fields)))) }
        entry.append(("pagination", Self.json(feed.pagination)))
        if !query.isEmpty { entry.append(("query", .object(JSONObject(query)))) }
        return .object(JSONObject([("feeds", .object(JSONObject([(Self.key(feed.name), .object(JSONObject(entry)))])))]))
    }

    /// A feeds.json `pagination` object.
    static func json(_ pagination: Pagination) -> JSONValue {
        var members: [(key: String, value: JSONValue)]
        switch pagination.style {
        case .pageNumber(let first): members = [("style", "page"), ("first", .number(String(first)))]
        case .offset(let limit): members = [("style", "offset"), ("limit", .number(String(limit)))]
        case .cursor(let path, let parameter): members = [("style", "cursor"), ("path", .string(path)), ("param", .string(parameter))]
        case .linkHeader: members = [("style", "link")]
        }
        if let hasMore = pagination.hasMorePath { members.append(("hasMore", .string(hasMore))) }
        return .object(JSONObject(members))
    }

    /// A feed name fit for a feeds.json key and a command line: letters, digits, `-`, `_` and `.`.
    static func key(_ name: String) -> String {
        let kept = name.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" }
        let key = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return key.isEmpty ? "my-feed" : key
    }

    /// A score as printed: one decimal.
    static func number(_ value: Double) -> String { FieldPlan.number(value) }
}
