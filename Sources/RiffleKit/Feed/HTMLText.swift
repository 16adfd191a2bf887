import Foundation

/// HTML read as plain text for a terminal: tags removed, character references decoded (named,
/// decimal, hex), `<p>` and other blocks as paragraph breaks, `<br>` as a line break, list items
/// as "• ", links kept readable as "text (url)" when the text is not the url itself.
///
/// Hand-written because Foundation on Linux has no HTML parser (`NSAttributedString`'s HTML import
/// exists only on Apple platforms) and the package takes no outside dependencies. It is a reader for
/// the small HTML that feeds send (Mastodon statuses, Stack Exchange and YouTube titles, MediaWiki
/// snippets, Discourse excerpts), not a browser: only known element names count as tags, so text such
/// as `Vec<T>` or `a < b` stays as it is.
///
/// The result never holds a control character other than `\n`: a C0 control (raw or as a reference
/// such as `&#27;`) becomes its visible picture (␛), DEL ␡, a C1 control or bidirectional override
/// U+FFFD, as the browser's sanitiser shows them.
///
/// ```
/// HTMLText.plainText("<p>Hello &amp; <a href=\"https://x.org/a\">welcome</a></p><p>Bye</p>")
/// // "Hello & welcome (https://x.org/a)\n\nBye"
/// ```
package enum HTMLText {
    /// `html` as plain text (see `HTMLText`).
    package static func plainText(_ html: String) -> String {
        var reader = Reader(Array(html.unicodeScalars))
        return reader.run()
    }

    /// `html` read as `plainText` reads it, with its marks (italics, code, quotes, preformatted
    /// blocks) and its links left where they stand for `MarkedText` to number, not written "(url)".
    static func marked(_ html: String) -> (text: [Unicode.Scalar], marks: [MarkedText.Mark], anchors: [MarkedText.Anchor]) {
        var reader = Reader(Array(html.unicodeScalars))
        reader.marking = true
        reader.read()
        for open in reader.openMarks.reversed() { reader.addMark(open.kind, from: open.start) }
        return (Array(reader.out), reader.marks, reader.anchors)
    }

    /// The elements that mark their text, when read for `MarkedText`.
    private static let markKinds: [String: MarkedText.Kind] = [
        "i": .italic, "em": .italic, "cite": .italic, "var": .italic, "dfn": .italic,
        "code": .code, "kbd": .code, "samp": .code, "tt": .code, "blockquote": .quote, "pre": .preformatted,
    ]

    /// Whether `text` shows signs of HTML markup: a closing tag (`</p>`), a line or paragraph tag
    /// (`<br>`, `<p>`), or an element closed by `/>`. Text without them is treated as plain text,
    /// in which only character references are decoded (`decodingReferences(_:)`).
    package static func looksLikeHTML(_ text: String) -> Bool {
        // Most text has no "<" at all, which memchr tells at memory speed; after the first one, a
        // "/>" anywhere closes an element.
        var text = text
        let scan: (sawLess: Bool, closed: Bool) = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "<")), bytes.count) else { return (false, false) }
            var index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            while index + 1 < bytes.count {
                if bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: ">") { return (true, true) }
                index += 1
            }
            return (true, false)
        }
        if scan.closed { return true }
        return scan.sawLess && hasMarkupTag(text)
    }

    /// Whether `text` (which holds a `<`) has a closing tag (`</` and a letter) or a line, paragraph,
    /// image or rule tag, in any case.
    static func hasMarkupTag(_ text: String) -> Bool {
        let lower = text.lowercased()
        for marker in ["</", "<br", "<p>", "<p ", "<img ", "<hr"] where lower.contains(marker) {
            if marker != "</" { return true }
            // A closing tag: "</" and a letter.
            var rest = Substring(lower)
            while let range = rest.range(of: "</") {
                rest = rest[range.upperBound...]
                if let next = rest.unicodeScalars.first, ("a"..."z").contains(next) { return true }
            }
        }
        return false
    }

    /// `text` with its character references decoded and nothing else changed (beyond the control
    /// characters `plainText` also replaces): for plain text that an API HTML-escapes, such as Stack
    /// Exchange titles (`&#39;`, `&quot;`).
    package static func decodingReferences(_ text: String) -> String {
        // Most text has nothing to decode or replace: found by its bytes, it is kept as it is.
        guard needsDecoding(text.utf8) else { return text }
        return decodingEveryScalar(text)
    }

    /// `decodingReferences`, scalar by scalar.
    static func decodingEveryScalar(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "&", let (decoded, next) = reference(in: scalars, at: i) {
                out.append(contentsOf: decoded.unicodeScalars.map(keepingBreaks))
                i = next
            } else {
                out.append(keepingBreaks(scalar))
                i += 1
            }
        }
        return String(out)
    }

    /// Whether `utf8` holds a `&` or a scalar `keepingBreaks` replaces (a C0 control other than a
    /// line feed or tab, DEL, a C1 control, a bidirectional embedding, override or isolate), told by
    /// its UTF-8 bytes alone.
    static func needsDecoding(_ utf8: String.UTF8View) -> Bool {
        // A native string's bytes are contiguous: read them through a pointer, several times faster
        // than the view's iterator on the dump's path (every item's text is checked).
        if let found = utf8.withContiguousStorageIfAvailable({ needsDecoding(bytes: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { needsDecoding(bytes: $0) }
    }

    /// The bytes that may start what `needsDecoding` looks for: `&`, DEL, C0 controls but line feed
    /// and tab, and the lead bytes of C1 controls (C2) and of the bidirectional controls (E2).
    private static let startsAReplacement: [Bool] = (0..<256).map { byte in
        (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x26 || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    private static func needsDecoding(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        startsAReplacement.withUnsafeBufferPointer { table in
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                if table[Int(byte)] {
                    switch byte {
                    case 0xC2:  // U+0080–U+009F
                        if index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                    case 0xE2:  // U+202A–U+202E, U+2066–U+2069
                        if index + 2 < count {
                            let second = bytes[index + 1], third = bytes[index + 2]
                            if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) { return true }
                        }
                    default:
                        return true
                    }
                }
                index += 1
            }
            return false
        }
    }

    /// `text` without the white space (Unicode's White_Space: spaces, tabs, line breaks; and the
    /// zero-width space) at its start and end, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it here, looking only at the ends.
    package static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace || scalar.value == 0x200B }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// `safe(scalar)`, except that line breaks and tabs stay.
    private static func keepingBreaks(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar == "\n" || scalar == "\t" ? scalar : safe(scalar)
    }

    /// A scalar fit for a terminal, replaced as the browser's sanitiser shows it: a C0 control by its
    /// visible picture (ESC as ␛), DEL as ␡, a C1 control or a bidirectional override as U+FFFD.
    static func safe(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let v = scalar.value
        switch v {
        case 0..<0x20: return Unicode.Scalar(0x2400 + v)!
        case 0x7F: return "\u{2421}"
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return "\u{FFFD}"
        default: return scalar
        }
    }

    /// The reference starting with the `&` at `i` (`&amp;`, `&#39;`, `&#x1F600;`): its text and the
    /// index after its `;`, or nil when it is not a reference.
    static func reference(in s: [Unicode.Scalar], at i: Int) -> (String, Int)? {
        var j = i + 1
        guard j < s.count else { return nil }
        if s[j] == "#" {
            j += 1
            let hex = j < s.count && (s[j] == "x" || s[j] == "X")
            if hex { j += 1 }
            let start = j
            var value: UInt32 = 0
            while j < s.count, j - start < 8, let digit = hexDigit(s[j]), hex || digit < 10 {
                value = value &* (hex ? 16 : 10) &+ digit
                j += 1
            }
            guard j > start, j < s.count, s[j] == ";" else { return nil }
            return (String(numericScalar(value)), j + 1)
        }
        let start = j
        while j < s.count, j - start < 10, ("a"..."z").contains(s[j]) || ("A"..."Z").contains(s[j]) || ("0"..."9").contains(s[j]) {
            j += 1
        }
        guard j > start, j < s.count, s[j] == ";" else { return nil }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: s[start..<j])
        guard let text = namedReferences[String(name)] else { return nil }
        return (text, j + 1)
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    /// The character a numeric reference names, as HTML5 reads it: 0x80-0x9F are Windows-1252
    /// (`&#150;` is an en dash); surrogates and values past U+10FFFF are U+FFFD, controls as `safe`.
    static func numericScalar(_ value: UInt32) -> Unicode.Scalar {
        if (0x80...0x9F).contains(value) {
            let windows1252: [UInt32] = [0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                                         0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
                                         0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178]
            return Unicode.Scalar(windows1252[Int(value - 0x80)]).map { $0.value == 0 ? "\u{FFFD}" : $0 } ?? "\u{FFFD}"
        }
        if value == 0x09 || value == 0x0A { return Unicode.Scalar(value)! }
        guard let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return safe(scalar)
    }

    /// The named references feeds use (the full HTML5 table has 2,231; these cover text in the wild).
    static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ensp": " ", "emsp": " ",
        "thinsp": " ", "zwj": "\u{200D}", "zwnj": "\u{200C}", "lrm": "", "rlm": "", "shy": "",
        "ndash": "–", "mdash": "—", "lsquo": "‘", "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”",
        "bdquo": "„", "laquo": "«", "raquo": "»", "lsaquo": "‹", "rsaquo": "›", "hellip": "…", "middot": "·",
        "bull": "•", "prime": "′", "Prime": "″", "dagger": "†", "Dagger": "‡", "permil": "‰", "copy": "©",
        "reg": "®", "trade": "™", "deg": "°", "plusmn": "±", "times": "×", "divide": "÷", "micro": "µ",
        "para": "¶", "sect": "§", "cent": "¢", "pound": "£", "yen": "¥", "euro": "€", "curren": "¤",
        "iexcl": "¡", "iquest": "¿", "macr": "¯", "acute": "´", "cedil": "¸", "uml": "¨", "ordf": "ª",
        "ordm": "º", "sup1": "¹", "sup2": "²", "sup3": "³", "frac14": "¼", "frac12": "½", "frac34": "¾",
        "not": "¬", "brvbar": "¦", "circ": "ˆ", "tilde": "˜", "fnof": "ƒ",
        "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓", "harr": "↔", "lArr": "⇐", "rArr": "⇒", "hArr": "⇔",
        "minus": "−", "le": "≤", "ge": "≥", "ne": "≠", "asymp": "≈", "equiv": "≡", "infin": "∞", "sum": "∑",
        "prod": "∏", "radic": "√", "part": "∂", "nabla": "∇", "isin": "∈", "empty": "∅", "and": "∧", "or": "∨",
        "cap": "∩", "cup": "∪", "int": "∫", "there4": "∴", "sim": "∼", "loz": "◊",
        "hearts": "♥", "spades": "♠", "clubs": "♣", "diams": "♦", "check": "✓",
        "Agrave": "À", "Aacute": "Á", "Acirc": "Â", "Atilde": "Ã", "Auml": "Ä", "Aring": "Å", "AElig": "Æ",
        "Ccedil": "Ç", "Egrave": "È", "Eacute": "É", "Ecirc": "Ê", "Euml": "Ë", "Igrave": "Ì", "Iacute": "Í",
        "Icirc": "Î", "Iuml": "Ï", "ETH": "Ð", "Ntilde": "Ñ", "Ograve": "Ò", "Oacute": "Ó", "Ocirc": "Ô",
        "Otilde": "Õ", "Ouml": "Ö", "Oslash": "Ø", "Ugrave": "Ù", "Uacute": "Ú", "Ucirc": "Û", "Uuml": "Ü",
        "Yacute": "Ý", "THORN": "Þ", "szlig": "ß", "agrave": "à", "aacute": "á", "acirc": "â", "atilde": "ã",
        "auml": "ä", "aring": "å", "aelig": "æ", "ccedil": "ç", "egrave": "è", "eacute": "é", "ecirc": "ê",
        "euml": "ë", "igrave": "ì", "iacute": "í", "icirc": "î", "iuml": "ï", "eth": "ð", "ntilde": "ñ",
        "ograve": "ò", "oacute": "ó", "ocirc": "ô", "otilde": "õ", "ouml": "ö", "oslash": "ø", "ugrave": "ù",
        "uacute": "ú", "ucirc": "û", "uuml": "ü", "yacute": "ý", "thorn": "þ", "yuml": "ÿ", "OElig": "Œ",
        "oelig": "œ", "Scaron": "Š", "scaron": "š", "Yuml": "Ÿ",
        "Alpha": "Α", "Beta": "Β", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Pi": "Π",
        "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "alpha": "α", "beta": "β", "gamma": "γ",
        "delta": "δ", "epsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ",
        "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "rho": "ρ", "sigma": "σ",
        "sigmaf": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    ]

    /// How an element changes the text around it.
    private enum Role {
        case inline, lineBreak, block, paragraph, listItem, cell, link, image, skipContents, preformatted
    }

    /// The elements read as tags; any other `<name` is text. Unknown elements are rare in feed HTML,
    /// while `<T>` in titles about generics is common.
    private static let roles: [String: Role] = {
        var roles: [String: Role] = [:]
        for name in ["span", "b", "i", "em", "strong", "code", "small", "big", "sup", "sub", "u", "s", "strike", "mark",
                     "abbr", "cite", "q", "font", "del", "ins", "kbd", "samp", "var", "time", "label", "tt", "bdi", "bdo",
                     "html", "body", "head", "meta", "link", "wbr", "center", "thead", "tbody", "tfoot", "colgroup",
                     "col", "source", "picture", "video", "audio", "details", "summary", "nav", "main", "aside", "dfn"] {
            roles[name] = .inline
        }
        for name in ["div", "tr", "dt", "dd", "caption", "figcaption", "address"] { roles[name] = .block }
        for name in ["p", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table", "hr", "section",
                     "article", "header", "footer", "figure"] {
            roles[name] = .paragraph
        }
        roles["br"] = .lineBreak
        roles["li"] = .listItem
        roles["td"] = .cell
        roles["th"] = .cell
        roles["a"] = .link
        roles["img"] = .image
        roles["pre"] = .preformatted
        for name in ["script", "style", "title", "noscript", "template", "svg"] { roles[name] = .skipContents }
        return roles
    }()

    /// One pass over the scalars, writing text with HTML's whitespace rules.
    private struct Reader {
        let s: [Unicode.Scalar]
        var i = 0
        var out = String.UnicodeScalarView()
        /// Breaks owed before the next text: 1 a line, 2 a paragraph.
        var breaks = 0
        var space = false
        var preformatted = 0
        /// Open links: their target and where their text starts in `out`.
        var links: [(href: String, start: Int)] = []
        var written = 0
        /// Whether marks are recorded and links kept as anchors (`HTMLText.marked`).
        var marking = false
        var marks: [MarkedText.Mark] = []
        /// Marking elements still open: their name, their mark and where their text starts.
        var openMarks: [(name: String, kind: MarkedText.Kind, start: Int)] = []
        var anchors: [MarkedText.Anchor] = []
        /// Whether the last thing written was a line break inside `<pre>`.
        var lastBreakWasPreformatted = false
        /// Whether anything but white space was written yet, and whether the first of it was inside
        /// `<pre>`: then the spaces before it on its line are its indentation, kept (`run`).
        var wroteText = false
        var textStartsPreformatted = false
        static let tabWidth = 8

        /// The columns written since the last line break (one a scalar).
        var column: Int {
            var n = 0
            for scalar in out.reversed() {
                if scalar == "\n" { break }
                n += 1
            }
            return n
        }

        init(_ scalars: [Unicode.Scalar]) { s = scalars }

        mutating func run() -> String {
            read()
            // A text that opens with a code block keeps its first line's indentation.
            guard textStartsPreformatted else { return String(out).trimmingSpaces }
            let text = String(out).trimmingSpaces
            var indent = ""
            for character in String(out) {
                if character == "\n" { indent = "" } else if character == " " { indent.append(" ") } else { break }
            }
            return indent + text
        }

        mutating func read() {
            while i < s.count {
                let scalar = s[i]
                if scalar == "<", tag() { continue }
                if scalar == "&", let (text, next) = HTMLText.reference(in: s, at: i) {
                    for decoded in text.unicodeScalars { character(decoded, fromReference: true) }
                    i = next
                    continue
                }
                character(scalar, fromReference: false)
                i += 1
            }
        }

        /// A mark of `kind` over what was written since `start`, without the spaces and breaks at its ends.
        mutating func addMark(_ kind: MarkedText.Kind, from start: Int) {
            var lower = min(start, out.count), upper = out.count
            let scalars = Array(out[out.index(out.startIndex, offsetBy: lower)...])
            var head = 0, tail = scalars.count
            while head < tail, scalars[head].properties.isWhitespace { head += 1 }
            while tail > head, scalars[tail - 1].properties.isWhitespace { tail -= 1 }
            upper = lower + tail
            lower += head
            if lower < upper { marks.append(MarkedText.Mark(kind, lower..<upper)) }
        }

        mutating func character(_ scalar: Unicode.Scalar, fromReference: Bool) {
            switch scalar {
            case " " where fromReference:
                // `&nbsp;` and friends: a space that does not collapse.
                flush()
                append(" ")
            case " ", "\t", "\r", "\n", "\u{0C}", "\u{2028}", "\u{2029}":
                if preformatted > 0 {
                    flush()
                    lastBreakWasPreformatted = scalar != " " && scalar != "\t" && scalar != "\u{0C}"
                    if scalar == "\t" {
                        // A tab goes to the next tab stop, every 8 columns, as a browser shows it.
                        for _ in 0..<(Self.tabWidth - column % Self.tabWidth) { append(" ") }
                    } else {
                        append(scalar == "\n" || scalar == "\u{2028}" || scalar == "\u{2029}" ? "\n" : scalar == "\r" ? "\n" : " ")
                    }
                } else {
                    space = true
                }
            default:
                flush()
                lastBreakWasPreformatted = false
                if !wroteText { wroteText = true; textStartsPreformatted = preformatted > 0 }
                append(HTMLText.safe(scalar))
            }
        }

        /// Writes the owed break or space before text.
        mutating func flush() {
            if written > 0 {
                if breaks > 0 {
                    while let last = out.last, last == " " { out.removeLast(); written -= 1 }
                    // A preformatted block that ended with its own line break owes one less.
                    let ended = out.last == "\n" && lastBreakWasPreformatted ? 1 : 0
                    for _ in 0..<max(0, breaks - ended) { append("\n") }
                } else if space, let last = out.last, last != "\n", last != " " {
                    append(" ")
                }
            }
            breaks = 0
            space = false
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            out.append(scalar)
            written += 1
        }

        mutating func lineBreak(_ n: Int) {
            breaks = max(breaks, n)
            space = false
        }

        /// Reads the tag at `i` (a `<`) and acts on it; false when it is not a tag (then `<` is text).
        mutating func tag() -> Bool {
            var j = i + 1
            guard j < s.count else { return false }
            if s[j] == "!" || s[j] == "?" {
                // A comment, a doctype or a processing instruction: skipped whole.
                let comment = j + 2 < s.count && s[j] == "!" && s[j + 1] == "-" && s[j + 2] == "-"
                j = comment ? j + 3 : j + 1
                while j < s.count {
                    if comment ? (s[j] == ">" && s[j - 1] == "-" && s[j - 2] == "-") : s[j] == ">" { break }
                    j += 1
                }
                i = min(j + 1, s.count)
                return true
            }
            let closing = s[j] == "/"
            if closing { j += 1 }
            let nameStart = j
            while j < s.count, s[j].properties.isAlphabetic || ("0"..."9").contains(s[j]) { j += 1 }
            guard j > nameStart else { return false }
            var nameScalars = String.UnicodeScalarView()
            nameScalars.append(contentsOf: s[nameStart..<j])
            let name = String(nameScalars).lowercased()
            guard let role = HTMLText.roles[name], j < s.count, [" ", "\t", "\n", "\r", "/", ">"].contains(s[j]) else {
                return false
            }
            // The attributes run to the first `>` outside quotes.
            var quote: Unicode.Scalar?
            let attributesStart = j
            while j < s.count {
                let c = s[j]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == ">" {
                    break
                }
                j += 1
            }
            guard j < s.count else { return false }
            let attributes = Array(s[attributesStart..<j])
            i = j + 1
            apply(role, name: name, closing: closing, attributes: attributes)
            return true
        }

        mutating func apply(_ role: Role, name: String, closing: Bool, attributes: [Unicode.Scalar]) {
            if marking, let kind = HTMLText.markKinds[name] {
                if !closing {
                    openMarks.append((name, kind, written))
                } else if let index = openMarks.lastIndex(where: { $0.name == name }) {
                    addMark(kind, from: openMarks.remove(at: index).start)
                }
            }
            switch role {
            case .inline: break
            case .lineBreak:
                if written > 0 || breaks > 0 { flush(); append("\n") }
            case .block: lineBreak(1)
            case .paragraph: lineBreak(2)
            case .listItem:
                if !closing {
                    lineBreak(1)
                    flush()
                    append("•")
                    append(" ")
                }
            case .cell: space = true
            case .preformatted:
                lineBreak(2)
                preformatted = max(0, preformatted + (closing ? -1 : 1))
            case .image:
                if let alt = Self.attribute("alt", in: attributes), !alt.isEmpty {
                    for scalar in alt.unicodeScalars { character(scalar, fromReference: false) }
                }
            case .skipContents:
                guard !closing else { return }
                // Everything up to the matching closing tag is dropped.
                let end = Array("</\(name)".unicodeScalars)
                var j = i
                while j + end.count <= s.count {
                    if zip(s[j..<(j + end.count)], end).allSatisfy({ $0.properties.lowercaseMapping == String($1) }) { break }
                    j += 1
                }
                while j < s.count, s[j] != ">" { j += 1 }
                i = min(j + 1, s.count)
            case .link:
                if !closing {
                    links.append((Self.attribute("href", in: attributes) ?? "", written))
                } else if let link = links.popLast() {
                    closeLink(link)
                }
            }
        }

        /// After a link's text: "text (url)" when the text does not already say where it goes.
        mutating func closeLink(_ link: (href: String, start: Int)) {
            let href = HTMLText.decodingReferences(link.href).trimmingSpaces
            if marking {
                // Numbered later (`MarkedText`), wherever it goes once resolved; a link without text shows its target.
                guard !href.isEmpty else { return }
                if written <= link.start || String(String.UnicodeScalarView(out.dropFirst(link.start))).trimmingSpaces.isEmpty {
                    flush()
                    for scalar in href.unicodeScalars { append(HTMLText.safe(scalar)) }
                }
                anchors.append(MarkedText.Anchor(range: min(link.start, written)..<written, href: href))
                return
            }
            guard href.hasPrefix("http://") || href.hasPrefix("https://") else { return }
            var textScalars = String.UnicodeScalarView()
            textScalars.append(contentsOf: out.dropFirst(min(link.start, out.count)))
            let text = String(textScalars).trimmingSpaces
            if text.isEmpty {
                flush()
                for scalar in href.unicodeScalars { append(HTMLText.safe(scalar)) }
                return
            }
            // Mentions and hashtags (Mastodon's "@user", "#tag") read well on their own.
            if text.hasPrefix("@") || text.hasPrefix("#") { return }
            let bare = href.drop { $0 != ":" }.dropFirst(3)
            for same in [href, String(bare), String(bare.drop { $0 != "." }.dropFirst())] where !same.isEmpty {
                if text == same || text + "/" == same || text == same + "/" || (text.hasSuffix("…") && same.hasPrefix(text.dropLast())) {
                    return
                }
            }
            flush()
            append(" ")
            append("(")
            for scalar in href.unicodeScalars { append(HTMLText.safe(scalar)) }
            append(")")
        }

        /// The value of attribute `name` (quoted or not), references decoded.
        static func attribute(_ name: String, in attributes: [Unicode.Scalar]) -> String? {
            var j = 0
            let wanted = Array(name.unicodeScalars)
            while j < attributes.count {
                // At an attribute name?
                let boundary = j == 0 || [" ", "\t", "\n", "\r", "/"].contains(attributes[j - 1])
                if boundary, j + wanted.count <= attributes.count,
                   zip(attributes[j..<(j + wanted.count)], wanted).allSatisfy({ String($0).lowercased() == String($1) }) {
                    var k = j + wanted.count
                    while k < attributes.count, attributes[k] == " " { k += 1 }
                    if k < attributes.count, attributes[k] == "=" {
                        k += 1
                        while k < attributes.count, attributes[k] == " " { k += 1 }
                        var value = String.UnicodeScalarView()
                        if k < attributes.count, attributes[k] == "\"" || attributes[k] == "'" {
                            let q = attributes[k]
                            k += 1
                            while k < attributes.count, attributes[k] != q { value.append(attributes[k]); k += 1 }
                        } else {
                            while k < attributes.count, ![" ", "\t", "\n", "\r", ">"].contains(attributes[k]) {
                                value.append(attributes[k])
                                k += 1
                            }
                        }
                        return HTMLText.decodingReferences(String(value))
                    }
                }
                j += 1
            }
            return nil
        }
    }
}

extension String {
    /// Without leading and trailing spaces and line breaks (no Foundation needed).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
