import Foundation

/// A rule that hides items from a reader, as a feeds file writes it (`"hide": ["crypto", "site:example.com"]`).
///
/// The rule is one line of text, in one of four forms:
/// - `crypto`, `Show HN`: words of the title, whole and in that order, ignoring case ("crypto" hides
///   "Crypto winter" and "Is crypto dead?", not "cryptography"). In scripts written without spaces
///   (Chinese, Japanese, Thai) a rule's characters match wherever they stand.
/// - `author:NAME`: the item's author, the whole name, ignoring case.
/// - `site:DOMAIN`: the host of the item's link is DOMAIN or one of its subdomains (`site:medium.com`
///   also hides `blog.medium.com`, not `notmedium.com`).
/// - `.PATH:TEXT`: the value at the dotted `PATH` of the item's JSON, as the server sent it, holds the
///   words TEXT as a title rule would (a number or a boolean as written; an array when one of its
///   elements does): `.type:job`, `._tags:ask_hn`, `.data.over_18:true`.
///
/// `title:TEXT` is the first form written out, for words that would read as another form. Any other
/// `word:text` (no space around the colon) is an error rather than a rule that never matches.
///
/// ```swift
/// let rules = try ["crypto", "author:spammer", "site:example.com", ".type:job"].map { try HideRule($0) }
/// var item = Item(id: "1", title: "Crypto is back", details: [], url: "https://blog.example.com/a",
///                 createdAt: nil, fields: ["type": "story"])
/// item.author = "someone"
/// let hidden = rules.contains { $0.matches(item) }  // true: "crypto" is a word of the title
/// ```
public struct HideRule: Sendable, Hashable, CustomStringConvertible {
    /// What a rule looks at.
    private enum Target: Sendable, Hashable {
        case title
        case author
        case site
        case field(JSONPath)
    }

    private let target: Target
    /// What is looked for, lowercased: words, a name, a domain.
    private let text: String
    /// The rule as written.
    public let description: String

    /// Reads a rule written as `text` (see the type's forms).
    /// - Throws: `HideRule.Error` saying what is wrong with it, in one line that quotes it.
    public init(_ text: String) throws(Error) {
        description = text
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func fail(_ problem: String) -> Error { Error(rule: text, problem: problem) }
        guard !trimmed.isEmpty else { throw fail("an empty rule would hide nothing (write words, author:NAME, site:DOMAIN or .PATH:TEXT)") }
        guard !trimmed.contains(where: { $0.isNewline }) else { throw fail("a rule is one line") }
        var target = Target.title
        var value = trimmed
        if trimmed.hasPrefix(".") {
            guard let colon = trimmed.firstIndex(of: ":") else { throw fail("a field rule is .PATH:TEXT (.type:job)") }
            let path = JSONPath(String(trimmed[trimmed.index(after: trimmed.startIndex)..<colon]))
            guard !path.isEmpty else { throw fail("a field rule needs a path before the colon (.type:job)") }
            target = .field(path)
            value = String(trimmed[trimmed.index(after: colon)...])
        } else if let colon = trimmed.firstIndex(of: ":"), Self.isKindName(trimmed[..<colon]) {
            // A key directly followed by its value (`author:bob`); "Show HN: x" (a space) is words.
            let after = trimmed[trimmed.index(after: colon)...]
            if !(after.first?.isWhitespace ?? false) {
                switch trimmed[..<colon].lowercased() {
                case "title": target = .title
                case "author": target = .author
                case "site": target = .site
                case let other:
                    throw fail("unknown kind '\(other):' (expected author:NAME, site:DOMAIN, title:WORDS or .PATH:TEXT)")
                }
                value = String(after)
            }
        }
        value = value.trimmingCharacters(in: .whitespaces).lowercased()
        switch target {
        case .title, .field:
            guard value.contains(where: { !$0.isPunctuation && !$0.isWhitespace }) else {
                throw fail(value.isEmpty ? "nothing to look for after the colon" : "punctuation alone would hide too much")
            }
        case .author:
            guard !value.isEmpty else { throw fail("author: needs a name (author:pg)") }
        case .site:
            if value.hasPrefix("www.") { value.removeFirst(4) }
            guard Self.isDomain(value) else {
                throw fail("site: needs a domain alone, such as site:example.com (no scheme, path or port)")
            }
        }
        self.target = target
        self.text = value
    }

    /// Whether the rule reads a field of the item's JSON (`.PATH:TEXT`), which only the item as the
    /// server sent it holds (not the reading log's copy, which `riffle search` reads).
    public var readsField: Bool {
        if case .field = target { true } else { false }
    }

    /// Whether the rule hides `item`.
    public func matches(_ item: Item) -> Bool {
        switch target {
        case .title:
            return Self.holdsWords(text, in: item.title)
        case .author:
            return item.author.map { $0.lowercased() == text } ?? false
        case .site:
            guard let bare = Self.host(of: item.url) else { return false }
            return bare == text || bare.hasSuffix("." + text)
        case .field(let path):
            return item.scalarTexts(at: path).contains { Self.holdsWords(text, in: $0) }
        }
    }

    /// The host of `link` as a `site:` rule compares it: lowercased, without a trailing dot.
    package static func host(of link: String?) -> String? {
        guard let link, let host = URLComponents(string: link)?.host?.lowercased() else { return nil }
        return host.hasSuffix(".") ? String(host.dropLast()) : host
    }

    /// Whether two rules hide the same items as written (`Site:Example.com` is `site:example.com`).
    public static func == (lhs: HideRule, rhs: HideRule) -> Bool {
        lhs.target == rhs.target && lhs.text == rhs.text
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(target)
        hasher.combine(text)
    }

    /// What is wrong with a rule: the rule and the problem, one line.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The rule as written.
        public let rule: String
        /// What is wrong with it.
        public let problem: String

        /// `'autor:bob': unknown kind 'autor:' (...)`: the rule, quoted, then the problem.
        public var description: String { "'\(rule)': \(problem)" }
    }

    // MARK: Matching words

    /// Whether `words` (lowercased) stand in `text` as whole words, ignoring case: no letter, digit or
    /// `_` right before or after them, except in scripts written without spaces.
    static func holdsWords(_ words: String, in text: String) -> Bool {
        guard let first = words.first, let last = words.last else { return false }
        let haystack = text.lowercased()
        var from = haystack.startIndex
        while from < haystack.endIndex, let found = haystack[from...].firstRange(of: words) {
            let before = found.lowerBound > haystack.startIndex ? haystack[haystack.index(before: found.lowerBound)] : nil
            let after = found.upperBound < haystack.endIndex ? haystack[found.upperBound] : nil
            if isBoundary(before, first), isBoundary(after, last) { return true }
            from = haystack.index(after: found.lowerBound)
        }
        return false
    }

    /// Whether a word may end between `neighbour` and `edge` (the rule's first or last character).
    private static func isBoundary(_ neighbour: Character?, _ edge: Character) -> Bool {
        guard let neighbour else { return true }
        return !isWordCharacter(neighbour) || !isWordCharacter(edge) || isUnspaced(neighbour) || isUnspaced(edge)
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Han, kana, Thai, Lao, Khmer, Myanmar: scripts that do not put spaces between words.
    private static func isUnspaced(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        switch scalar {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    // MARK: Reading rules

    /// A name that may stand before a colon as a kind: letters, digits, `_` and `-`.
    private static func isKindName(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
    }

    /// Labels of letters, digits and `-` between dots, in ASCII (as links carry them: `xn--` for others).
    private static func isDomain(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return !text.isEmpty && text.utf8.count <= 253 && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
        }
    }
}
