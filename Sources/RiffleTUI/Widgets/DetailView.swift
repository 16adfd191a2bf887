import Foundation
import RiffleKit

/// One item in full, as blocks laid out only where the reader is (`BlockPager`): the story as people
/// read it (title, site, author, age, score, comments, its text, its link), every field as
/// "key: value" (nested objects indented), or its raw JSON pretty-printed.
package struct DetailView: Sendable {
    /// How an item is shown; `v` goes from one to the next.
    package enum Mode: Sendable, Equatable, CaseIterable {
        case story, fields, raw

        /// The next one `v` shows.
        package var next: Mode {
            switch self {
            case .story: .fields
            case .fields: .raw
            case .raw: .story
            }
        }

        /// What the status bar calls it.
        package var name: String {
            switch self {
            case .story: "story"
            case .fields: "fields"
            case .raw: "raw JSON"
            }
        }
    }

    /// The most lines one block (a field's value, a paragraph) is laid out into: a text of megabytes
    /// costs this many lines, then says how much was left out.
    package static let maxBlockLines = 1_000

    /// Text longer than this (in characters) is read as HTML or split into paragraphs only up to
    /// here: the story's text is for reading, and the whole of it stays under `v`.
    package static let maxStoryText = 200_000

    /// One block: a label and a text wrapped after it, lines after the first indented `hang` more.
    package struct Paragraph: Sendable, Equatable {
        var indent = 0
        var label: String?
        var labelStyle = Style(.accent, bold: true)
        var text: String
        var style = Style.normal
        var hang = 0
        var keepsURLs = false
        /// The most lines it is laid out into.
        var maxLines = DetailView.maxBlockLines

        /// The lines at `width` columns: `DetailView.maxBlockLines` at most, then a line saying what was cut.
        func lines(width: Int) -> [StyledLine] {
            let width = max(4, width)
            let pad = StyledLine.Span(String(repeating: " ", count: indent))
            guard let label else {
                return DetailView.wrapped(text, pad: indent, hang: hang, width: width, style: style, keepsURLs: keepsURLs, maxLines: maxLines)
            }
            let labelSpan = StyledLine.Span(Sanitizer.clean(label), labelStyle)
            if text.isEmpty { return [StyledLine([pad, labelSpan])] }
            let labelWidth = TextWidth.width(of: labelSpan.text)
            // Below zero when the label is wider than the screen (a field's long key, `link:` on a
            // terminal a few columns wide): the value then goes under it.
            let first = width - indent - labelWidth - 1
            // A long key leaves too little room beside it for long text: the value goes under it instead.
            if first < 12 && (first < 1 || TextWidth.width(of: text.prefix(first + 1)) > first) {
                return [StyledLine([pad, labelSpan])]
                    + DetailView.wrapped(text, pad: indent + 2, hang: 0, width: width, style: style, keepsURLs: keepsURLs, maxLines: maxLines)
            }
            let wrapped = TextWrap.wrap(text, width: max(1, first), continuationWidth: max(1, width - indent - 2),
                                        maxLines: maxLines, keepingURLs: keepsURLs)
            let hangPad = StyledLine.Span(String(repeating: " ", count: indent + 2))
            var lines = [StyledLine([pad, labelSpan, .init(" " + (wrapped.lines.first ?? ""), style)])]
            lines += wrapped.lines.dropFirst().map { StyledLine([hangPad, .init($0, style)]) }
            if wrapped.isCut { lines.append(DetailView.cutLine(text, indent: indent + 2)) }
            return lines
        }
    }

    /// `text` wrapped to fit after `pad` columns, the lines after the first indented `hang` more, cut
    /// at `maxBlockLines`.
    static func wrapped(_ text: String, pad: Int, hang: Int, width: Int, style: Style, keepsURLs: Bool = false,
                        maxLines: Int = maxBlockLines) -> [StyledLine] {
        let parts = TextWrap.wrap(text, width: max(1, width - pad), continuationWidth: max(1, width - pad - hang),
                                  maxLines: maxLines, keepingURLs: keepsURLs)
        var lines = parts.lines.enumerated().map { i, part in
            StyledLine([.init(String(repeating: " ", count: pad + (i == 0 ? 0 : hang))), .init(part, style)])
        }
        if parts.isCut { lines.append(cutLine(text, indent: pad)) }
        return lines
    }

    /// "… (the rest, 4.9 MB, is not shown)": what a cut block ends with.
    static func cutLine(_ text: String, indent: Int) -> StyledLine {
        StyledLine([.init(String(repeating: " ", count: indent)),
                    .init("… (cut here: the text is \(sizeText(text.utf8.count)); Y copies the item whole)", Style(.dim, dim: true))])
    }

    /// A byte count as people read it: "812 bytes", "34 KB", "4.9 MB".
    static func sizeText(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(bytes / 1_000) KB" }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    /// Every field of `value` as paragraphs: "key: value", containers as a heading with their
    /// members indented under it.
    static func fieldParagraphs(_ value: JSONValue, indent: Int = 0, into blocks: inout [Paragraph]) {
        let members: [(String, JSONValue)]
        switch value {
        case .object(let object): members = object.members.map { ($0.key, $0.value) }
        case .array(let elements): members = elements.enumerated().map { ("[\($0.offset)]", $0.element) }
        default:
            blocks.append(Paragraph(indent: indent, text: scalarText(value)))
            return
        }
        for (key, child) in members {
            let label = key + ":"
            if isContainer(child) {
                blocks.append(Paragraph(indent: indent, label: label, text: ""))
                fieldParagraphs(child, indent: indent + 2, into: &blocks)
                continue
            }
            blocks.append(Paragraph(indent: indent, label: label, text: scalarText(child),
                                    style: child.isNull ? Style(.dim, dim: true) : .normal, hang: 2))
        }
    }

    /// The raw JSON of `value`, pretty-printed, one paragraph a line.
    static func rawParagraphs(_ value: JSONValue) -> [Paragraph] {
        JSONFormatter.pretty(value).split(separator: "\n").map { line in
            let indent = line.prefix { $0 == " " }.count
            return Paragraph(indent: indent, text: String(line.dropFirst(indent)), hang: 2)
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
}

/// An item as blocks of one `DetailView.Mode`, made once per mode (no wrapping: that is per block,
/// when shown).
struct ItemDocument: BlockDocument, Sendable {
    var paragraphs: [DetailView.Paragraph]
    /// The block of the line of facts (site, author...); nil in the other modes.
    var factsBlock: Int?
    /// The item's age, last of the facts: the clock changes it, so it is set when the lines are made
    /// (and is part of their key), not when the document is.
    var age: String?

    init(item: Item, mode: DetailView.Mode) {
        switch mode {
        case .story:
            let story = StoryParts(item)
            // A title is a few lines; one of megabytes shows its start (the whole of it is under `v`).
            var blocks = [DetailView.Paragraph(text: story.title, style: Style(.normal, bold: true), maxLines: 20)]
            factsBlock = blocks.count
            blocks.append(DetailView.Paragraph(text: story.facts.joined(separator: " · "), style: Style(.dim, dim: true)))
            if let text = story.text {
                for paragraph in text.split(separator: "\n", omittingEmptySubsequences: true) {
                    blocks.append(DetailView.Paragraph(text: ""))
                    blocks.append(DetailView.Paragraph(text: String(paragraph), keepsURLs: true))
                }
            }
            if let link = story.link {
                blocks.append(DetailView.Paragraph(text: ""))
                blocks.append(DetailView.Paragraph(label: "link:", text: link, style: Style(.accent), hang: 2, keepsURLs: true))
            }
            paragraphs = blocks
        case .fields:
            var blocks: [DetailView.Paragraph] = []
            DetailView.fieldParagraphs(item.fields, into: &blocks)
            paragraphs = blocks
        case .raw:
            paragraphs = DetailView.rawParagraphs(item.fields)
        }
    }

    var firstBlock: Int? { paragraphs.isEmpty ? nil : 0 }
    var lastBlock: Int? { paragraphs.isEmpty ? nil : paragraphs.count - 1 }
    func block(after block: Int) -> Int? { block + 1 < paragraphs.count ? block + 1 : nil }
    func block(before block: Int) -> Int? { block > 0 && block - 1 < paragraphs.count ? block - 1 : nil }
    func lines(of block: Int, width: Int) -> [StyledLine] {
        guard paragraphs.indices.contains(block) else { return [StyledLine("")] }
        if block == factsBlock, let age {
            var facts = paragraphs[block]
            facts.text = facts.text.isEmpty ? age : facts.text + " · " + age
            return facts.lines(width: width)
        }
        return paragraphs[block].lines(width: width)
    }
}

/// What the item view shows of a story: its title, the facts a reader scans for, its own text as
/// text, and its link.
package struct StoryParts: Sendable, Equatable {
    package var title: String
    /// Site, author, score, comments (the age is added when drawn: it changes with the clock).
    package var facts: [String]
    /// The item's own text (an Ask HN's, a self post's), HTML read as text; nil when it has none.
    package var text: String?
    package var link: String?

    /// The members an item's own text is found under, most specific first: HN's `story_text`,
    /// Reddit's `selftext`, Lobsters' and many APIs' `description`...
    static let textKeys = ["story_text", "selftext", "text", "body", "description", "content", "summary", "excerpt"]

    package init(_ item: Item) {
        title = item.title
        var facts: [String] = []
        if let site = Self.site(of: item.url) { facts.append(site) }
        if let author = item.author { facts.append("by " + author) }
        if let score = item.score { facts.append(score == 1 ? "1 point" : "\(score) points") }
        if let comments = item.comments { facts.append(comments == 1 ? "1 comment" : "\(comments) comments") }
        self.facts = facts
        text = Self.text(of: item.fields)
        link = item.url.map { InertLink.encode($0) }
    }

    /// The domain of `link` without a leading `www.` (`example.com`); nil for no link or one without a host.
    package static func site(of link: String?) -> String? {
        guard let link, let host = URL(string: link)?.host?.lowercased(), !host.isEmpty else { return nil }
        let site = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        return Sanitizer.clean(site)
    }

    /// The item's own text: the first non-empty string under one of `textKeys`, at the top or in a
    /// `data` wrapper (Reddit), HTML read as text; at most `DetailView.maxStoryText` characters of it.
    static func text(of fields: JSONValue) -> String? {
        for object in [fields, fields["data"]].compactMap({ $0 }) {
            for key in textKeys {
                guard let raw = object[key]?.stringValue, !raw.isEmpty else { continue }
                let head = raw.utf8.count > DetailView.maxStoryText && raw.count > DetailView.maxStoryText ? String(raw.prefix(DetailView.maxStoryText)) + "…" : raw
                let text = (HTMLText.looksLikeHTML(head) ? HTMLText.plainText(head) : HTMLText.decodingReferences(head))
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { return text }
            }
        }
        return nil
    }
}
