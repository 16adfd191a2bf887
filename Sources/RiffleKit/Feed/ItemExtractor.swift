import Foundation

/// Finds the items in a response without configuration and turns each into an `Item`.
///
/// The items are the top-level array when the document is one, else the largest array of objects
/// anywhere in it (`hits`, `items`, `data`, `data.children[].data`...).
public enum ItemExtractor {
    static let titleKeys = ["title", "name", "headline", "subject", "full_name", "text"]
    static let idKeys = ["id", "objectID", "short_id", "uuid", "number", "key"]
    static let urlKeys = ["url", "link", "html_url", "short_id_url", "permalink", "story_url", "href"]
    static let authorKeys = ["author", "by", "user.login", "user.username", "submitter_user.username", "submitter_user", "owner.login", "username", "user"]
    static let scoreKeys = [("score", "points"), ("points", "points"), ("ups", "points"), ("stargazers_count", "stars"), ("positive_reactions_count", "reactions")]
    static let commentKeys = ["num_comments", "comments_count", "comment_count", "comments"]
    static let timeKeys = ["created_at", "created_utc", "created_at_i", "time", "published_at", "createdAt", "date", "updated_at"]

    // The same paths split once: splitting a dotted path on every lookup was a third of the
    // extraction time on a 50-item page.
    private static let titlePaths = split(titleKeys)
    private static let idPaths = split(idKeys)
    private static let urlPaths = split(urlKeys)
    private static let authorPaths = split(authorKeys)
    private static let scorePaths = scoreKeys.map { (path: split([$0.0])[0], unit: " " + $0.1) }
    private static let commentPaths = split(commentKeys)
    private static let timePaths = split(timeKeys)

    private static func split(_ paths: [String]) -> [[String]] {
        paths.map { $0.split(separator: ".", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The items of a parsed document.
    /// - Throws: `RiffleError.noItems` with the top-level keys when there is no array of objects.
    public static func items(in document: JSONValue) throws(RiffleError) -> [Item] {
        guard let array = itemArray(in: document) else {
            throw .noItems(keys: document.objectValue?.keys ?? [])
        }
        return array.map(item(from:))
    }

    /// The array that holds the items, unwrapped from Reddit-style `{kind, data}` wrappers.
    public static func itemArray(in document: JSONValue) -> [JSONValue]? {
        if case .array(let top) = document {
            return unwrapped(top)
        }
        var best: [JSONValue]?
        var bestCount = 0
        func visit(_ value: JSONValue, depth: Int) {
            guard depth < 8 else { return }
            switch value {
            case .array(let elements):
                let objects = elements.reduce(0) { $0 + ($1.objectValue == nil ? 0 : 1) }
                if objects > 0, objects * 2 >= elements.count, objects > bestCount {
                    best = elements
                    bestCount = objects
                }
                // Arrays nested in items (tags, comments) are never the list.
            case .object(let object):
                for member in object.members { visit(member.value, depth: depth + 1) }
            default: break
            }
        }
        visit(document, depth: 0)
        return best.map(unwrapped)
    }

    /// Reddit wraps each item as `{"kind": "t3", "data": {...}}`: take the inner object.
    private static func unwrapped(_ elements: [JSONValue]) -> [JSONValue] {
        let wrapped = !elements.isEmpty && elements.allSatisfy { element in
            guard let object = element.objectValue, object.count <= 2, object["data"]?.objectValue != nil else { return false }
            return object.count == 1 || object["kind"] != nil
        }
        return wrapped ? elements.compactMap { $0["data"] } : elements.filter { $0.objectValue != nil }
    }

    /// One item's display fields.
    public static func item(from value: JSONValue) -> Item {
        let title = firstText(value, titlePaths).flatMap { $0.isEmpty ? nil : $0 }
            ?? firstShortString(value) ?? "(untitled)"
        let id = firstText(value, idPaths)
        let url = firstText(value, urlPaths).flatMap { isHTTP($0) ? $0 : nil }
        var details: [String] = []
        details.reserveCapacity(3)
        if let author = firstText(value, authorPaths), !author.isEmpty { details.append(author) }
        for (path, unit) in scorePaths {
            if let n = numericText(value.value(at: path)) { details.append(n + unit); break }
        }
        for path in commentPaths {
            if let n = numericText(value.value(at: path)) { details.append(n + " comments"); break }
        }
        var createdAt: Date?
        for path in timePaths {
            if let found = value.value(at: path), let date = Timestamp.date(from: found) { createdAt = date; break }
        }
        let limit = createdAt == nil ? 3 : 2
        if details.count > limit { details.removeLast(details.count - limit) }
        return Item(id: id, title: title, details: details, url: url, createdAt: createdAt, fields: value)
    }

    /// The value's text when it reads as a number. JSON numbers always do (their grammar is a
    /// subset of `Double`'s), so only strings pay for a `Double` conversion.
    private static func numericText(_ value: JSONValue?) -> String? {
        switch value {
        case .number(let n): n
        case .string(let s): Double(s) != nil ? s : nil
        default: nil
        }
    }

    /// `text.hasPrefix("http")` without Character segmentation when the answer is plain bytes.
    static func isHTTP(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.starts(with: "http".utf8) else { return false }
        // After an ASCII byte "http" ends on a Character boundary; a combining mark would not.
        guard let next = utf8.dropFirst(4).first, next >= 0x80 else { return true }
        return text.hasPrefix("http")
    }

    private static func firstText(_ value: JSONValue, _ paths: [[String]]) -> String? {
        for path in paths {
            if let text = value.value(at: path)?.scalarText { return text }
        }
        return nil
    }

    private static func firstShortString(_ value: JSONValue) -> String? {
        value.objectValue?.members.lazy.compactMap { $0.value.stringValue }.first { !$0.isEmpty && $0.count < 200 }
    }
}

/// Timestamps as feeds write them: ISO 8601 text or Unix seconds.
public enum Timestamp {
    /// A date from an ISO 8601 string (`2024-05-01T12:30:00Z`, with optional fraction and offset)
    /// or a number of Unix seconds (milliseconds when it is too large to be seconds).
    public static func date(from value: JSONValue) -> Date? {
        switch value {
        case .number(let text):
            guard var seconds = Double(text), seconds > 0 else { return nil }
            if seconds > 1e11 { seconds /= 1000 }
            return Date(timeIntervalSince1970: seconds)
        case .string(let text):
            return iso8601(text)
        default:
            return nil
        }
    }

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH[:]MM]` without a formatter (they are slow and not Sendable).
    public static func iso8601(_ text: String) -> Date? {
        // Feed strings are native, so this reads their bytes in place; the copy is a fallback.
        text.utf8.withContiguousStorageIfAvailable(iso8601(bytes:)) ?? iso8601(bytes: Array(text.utf8))
    }

    /// `iso8601(_:)` of UTF-8 bytes.
    static func iso8601<Bytes: RandomAccessCollection<UInt8>>(bytes b: Bytes) -> Date? where Bytes.Index == Int {
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for i in from..<from + count {
                guard (48...57).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let year = num(0, 4), b.count >= 10, b[4] == 45, let month = num(5, 2), b[7] == 45, let day = num(8, 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = Double(daysFromCivil(year, month, day)) * 86_400
        var i = 10
        if i < b.count, b[i] == 84 || b[i] == 32 {  // 'T' or ' '
            guard let hour = num(i + 1, 2), b.count > i + 3, b[i + 3] == 58, let minute = num(i + 4, 2) else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            i += 6
            if i < b.count, b[i] == 58, let second = num(i + 1, 2) {
                seconds += Double(second)
                i += 3
                if i < b.count, b[i] == 46 {  // fraction
                    i += 1
                    var scale = 0.1
                    while i < b.count, (48...57).contains(b[i]) { seconds += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
                }
            }
        }
        if i < b.count {
            if b[i] == 90 || b[i] == 122 { return Date(timeIntervalSince1970: seconds) }  // Z
            guard b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2) else { return nil }
            let om = num(i + 3, 2) ?? num(i + 4, 2) ?? 0
            let offset = Double(oh * 3600 + om * 60)
            seconds += b[i] == 43 ? -offset : offset
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// "now", "42s ago", "5m ago", "3h ago", "2d ago", "4mo ago", "2y ago".
    public static func age(of date: Date, now: Date) -> String {
        let s = max(0, Int(now.timeIntervalSince(date)))
        switch s {
        case ..<5: return "just now"
        case ..<60: return "\(s)s ago"
        case ..<3600: return "\(s / 60)m ago"
        case ..<86_400: return "\(s / 3600)h ago"
        case ..<(86_400 * 60): return "\(s / 86_400)d ago"
        case ..<(86_400 * 730): return "\(s / (86_400 * 30))mo ago"
        default: return "\(s / (86_400 * 365))y ago"
        }
    }
}
