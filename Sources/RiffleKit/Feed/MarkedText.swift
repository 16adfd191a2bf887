import Foundation

/// Text read for a terminal with what its markup set apart (italics, code, quotes, preformatted
/// blocks) and the links it holds, each numbered where it stands ("gron [1]"): a comment's text as
/// the comment view draws it, and where `o` finds its links.
///
/// A link is an `<a href>` or a bare `http(s)://` URL in the text; a relative one is resolved against
/// `base` (the discussion page), and one that is not http(s) once resolved (`mailto:`, `javascript:`,
/// relative without a base) keeps its text and gets no number. The same URL twice has one number.
/// Marks cover Unicode scalar offsets into `text`.
///
/// ```swift
/// let html = "<p>See <a href=\"item?id=2\">this</a>, <i>really</i>: https://x.org/a.</p>"
/// let marked = MarkedText(html: html, base: URL(string: "https://news.ycombinator.com/item?id=1"))
/// marked.text    // "See this [1], really: https://x.org/a [2]."
/// marked.links   // [https://news.ycombinator.com/item?id=2, https://x.org/a]
/// marked.marks.first { $0.kind == .italic }?.range   // 14..<20
/// ```
public struct MarkedText: Sendable, Equatable {
    /// What a mark says about its text.
    public enum Kind: Sendable, Hashable {
        /// `<i>`, `<em>`, `<cite>`.
        case italic
        /// `<code>`, `<kbd>`, `<samp>`, `<tt>`.
        case code
        /// `<blockquote>`.
        case quote
        /// `<pre>`: lines kept as they were written.
        case preformatted
        /// The number shown after a link, `[n]`: `links[n - 1]`.
        case link(Int)
    }

    /// A part of the text and what it is.
    public struct Mark: Sendable, Hashable {
        /// What it is.
        public var kind: Kind
        /// Where it is: Unicode scalar offsets into `text`.
        public var range: Range<Int>

        /// A mark of `kind` over `range`.
        public init(_ kind: Kind, _ range: Range<Int>) {
            self.kind = kind
            self.range = range
        }
    }

    /// A link as the HTML reader leaves it for numbering: the text it covers and its target as written.
    struct Anchor: Sendable, Hashable {
        var range: Range<Int>
        var href: String
    }

    /// The text, controls replaced (see `HTMLText`), ends trimmed.
    public var text: String
    /// Its marks, in no particular order.
    public var marks: [Mark]
    /// Its links, absolute http(s) URLs, in the order of their numbers: `[1]` is the first.
    public var links: [URL]

    /// Text with these marks and links.
    public init(text: String, marks: [Mark] = [], links: [URL] = []) {
        self.text = text
        self.marks = marks
        self.links = links
    }

    /// `html` read as text (see `HTMLText`), with its marks and its links numbered.
    public init(html: String, base: URL?) {
        let read = HTMLText.marked(html)
        self = Self.numbered(read.text, marks: read.marks, anchors: read.anchors, base: base)
    }

    /// Plain text (Markdown, say) with its character references decoded and its bare URLs numbered.
    public init(plain: String, base: URL?) {
        self = Self.numbered(Array(HTMLText.decodingReferences(plain).unicodeScalars), marks: [], anchors: [], base: base)
    }

    /// HTML when `text` looks like it (`HTMLText.looksLikeHTML`), else plain text.
    public init(reading text: String, base: URL?) {
        self = HTMLText.looksLikeHTML(text) ? MarkedText(html: text, base: base) : MarkedText(plain: text, base: base)
    }

    /// The link `[number]` stands for, if there is one.
    public func link(_ number: Int) -> URL? { links.indices.contains(number - 1) ? links[number - 1] : nil }

    /// The text trimmed, each link followed by its number, the marks moved to match.
    static func numbered(_ scalars: [Unicode.Scalar], marks: [Mark], anchors: [Anchor], base: URL?) -> MarkedText {
        var lower = 0, upper = scalars.count
        while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        // A text that opens with a code block keeps its first line's indentation.
        if marks.contains(where: { $0.kind == .preformatted && $0.range.contains(lower) }) {
            while lower > 0, scalars[lower - 1] == " " { lower -= 1 }
        }
        let body = Array(scalars[lower..<upper])
        func trimmed(_ range: Range<Int>) -> Range<Int>? {
            let clamped = max(0, range.lowerBound - lower)..<min(body.count, max(0, range.upperBound - lower))
            return clamped.isEmpty ? nil : clamped
        }
        let anchored = anchors.compactMap { anchor in trimmed(anchor.range).map { Anchor(range: $0, href: anchor.href) } }
        let found = (anchored + bareURLs(in: body, outside: anchored.map(\.range))).sorted { $0.range.upperBound < $1.range.upperBound }

        // Each link that resolves gets a number (one per URL) inserted after its text.
        var links: [URL] = [], numbers: [String: Int] = [:]
        var insertions: [(at: Int, number: Int)] = []
        for anchor in found {
            guard let url = resolve(anchor.href, base: base) else { continue }
            let number = numbers[url.absoluteString] ?? {
                links.append(url)
                numbers[url.absoluteString] = links.count
                return links.count
            }()
            insertions.append((anchor.range.upperBound, number))
        }
        var out = String.UnicodeScalarView()
        var numberMarks: [Mark] = []
        var shifts: [(at: Int, by: Int)] = []
        var next = 0
        for insertion in insertions {
            out.append(contentsOf: body[next..<insertion.at])
            next = insertion.at
            let label = "[\(insertion.number)]"
            out.append(" ")
            let start = out.count
            out.append(contentsOf: label.unicodeScalars)
            numberMarks.append(Mark(.link(insertion.number), start..<out.count))
            shifts.append((insertion.at, label.unicodeScalars.count + 1))
        }
        out.append(contentsOf: body[next...])
        // A mark starting where a number goes starts after it; one ending there ends before it.
        func moved(_ offset: Int, isStart: Bool) -> Int {
            offset + shifts.reduce(0) { $0 + ((isStart ? $1.at <= offset : $1.at < offset) ? $1.by : 0) }
        }
        let movedMarks = marks.compactMap { mark -> Mark? in
            guard let range = trimmed(mark.range) else { return nil }
            let start = moved(range.lowerBound, isStart: true), end = moved(range.upperBound, isStart: false)
            return start < end ? Mark(mark.kind, start..<end) : nil
        }
        return MarkedText(text: String(out), marks: movedMarks + numberMarks, links: links)
    }

    /// The http(s) URLs written out in `text` and not inside `taken` (the anchors' text), each
    /// without the punctuation that ends a sentence or a parenthesis around it.
    static func bareURLs(in text: [Unicode.Scalar], outside taken: [Range<Int>]) -> [Anchor] {
        var found: [Anchor] = []
        let http = Array("http://".unicodeScalars), https = Array("https://".unicodeScalars)
        func startsURL(at i: Int) -> Int? {
            for prefix in [https, http] where i + prefix.count < text.count
                && zip(text[i..<(i + prefix.count)], prefix).allSatisfy({ $0.properties.lowercaseMapping == String($1) }) {
                return prefix.count
            }
            return nil
        }
        var i = 0
        while i < text.count {
            let boundary = i == 0 || !(text[i - 1].properties.isAlphabetic || text[i - 1].properties.numericType != nil)
            guard boundary, text[i] == "h" || text[i] == "H", let prefix = startsURL(at: i),
                  !taken.contains(where: { $0.contains(i) }) else {
                i += 1
                continue
            }
            var end = i + prefix
            while end < text.count, !text[end].properties.isWhitespace, !"<>\"`".unicodeScalars.contains(text[end]) { end += 1 }
            // Punctuation after a URL ends the sentence; a closing bracket ends the parenthesis it opened in.
            while end > i + prefix {
                let last = text[end - 1]
                let url = text[i..<end]
                if ".,;:!?'*_…".unicodeScalars.contains(last)
                    || (last == ")" && url.filter { $0 == "(" }.count < url.filter { $0 == ")" }.count)
                    || (last == "]" && url.filter { $0 == "[" }.count < url.filter { $0 == "]" }.count) {
                    end -= 1
                } else {
                    break
                }
            }
            if end > i + prefix, !taken.contains(where: { $0.overlaps(i..<end) }) {
                found.append(Anchor(range: i..<end, href: String(String.UnicodeScalarView(text[i..<end]))))
            }
            i = max(end, i + 1)
        }
        return found
    }

    /// `href` as an absolute http(s) URL (relative to `base`), made inert (`InertLink`); nil for
    /// anything else.
    static func resolve(_ href: String, base: URL?) -> URL? {
        let inert = InertLink.encode(href)
        guard !inert.isEmpty, let url = URL(string: inert, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
        return url
    }
}
