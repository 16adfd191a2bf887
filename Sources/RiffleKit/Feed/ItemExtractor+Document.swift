import Foundation

/// The fast path: the same rules as `items(in: JSONValue)`, read from a `JSONDocument`'s tape so
/// that only what the list shows is decoded. Tests hold the two paths to the same answers.
extension ItemExtractor {
    /// The items of a response body, read lazily (see `JSONDocument`).
    /// - Throws: `RiffleError.invalidJSON` or `RiffleError.noItems`, as the two-step path would.
    public static func items(in data: Data) throws(RiffleError) -> [Item] {
        let document: JSONDocument
        do { document = try JSONDocument(data) } catch { throw .invalidJSON(offset: error.offset, reason: error.reason) }
        return try items(in: document)
    }

    /// The items of a lazily read document; each item's `fields` stay in the document until read.
    public static func items(in document: JSONDocument) throws(RiffleError) -> [Item] {
        try document.withReader { reader throws(RiffleError) in
            guard let array = itemIndices(reader) else {
                var keys: [String] = []
                if reader.kind(0) == .object { reader.forEachMember(of: 0) { k, _ in keys.append(reader.string(k)) } }
                throw .noItems(keys: keys)
            }
            var members = MemberTable()
            return array.map { item(at: $0, reader, document, members: &members) }
        }
    }

    private enum Keys {
        static func prepare(_ paths: [String]) -> [TapePath] { paths.map(TapePath.init) }
        static let title = prepare(titleKeys)
        static let id = prepare(idKeys)
        static let url = prepare(urlKeys)
        static let author = prepare(authorKeys)
        static let score = scoreKeys.map { (path: TapePath($0.0), unit: " " + $0.1) }
        static let comments = prepare(commentKeys)
        static let time = prepare(timeKeys)
        static let data = TapeKey("data")
        static let kind = TapeKey("kind")
    }

    /// `itemArray(in:)` on the tape: the top-level array, else the largest array of objects.
    private static func itemIndices(_ r: TapeReader) -> [Int]? {
        if r.kind(0) == .array { return unwrapped(0, r) }
        var best: Int?
        var bestCount = 0
        func visit(_ i: Int, depth: Int) {
            guard depth < 8 else { return }
            switch r.kind(i) {
            case .array:
                var objects = 0, elements = 0
                r.forEachElement(of: i) { e in elements += 1; if r.kind(e) == .object { objects += 1 } }
                if objects > 0, objects * 2 >= elements, objects > bestCount {
                    best = i
                    bestCount = objects
                }
            case .object:
                r.forEachMember(of: i) { _, v in visit(v, depth: depth + 1) }
            default: break
            }
        }
        visit(0, depth: 0)
        return best.map { unwrapped($0, r) }
    }

    /// Reddit's `{"kind": "t3", "data": {...}}` wrappers, as in `unwrapped(_:)`.
    private static func unwrapped(_ array: Int, _ r: TapeReader) -> [Int] {
        var elements: [Int] = []
        r.forEachElement(of: array) { elements.append($0) }
        let wrapped = !elements.isEmpty && elements.allSatisfy { e in
            guard r.kind(e) == .object else { return false }
            let count = r.memberCount(of: e)
            guard count <= 2, let data = r.member(of: e, Keys.data), r.kind(data) == .object else { return false }
            return count == 1 || r.member(of: e, Keys.kind) != nil
        }
        return wrapped ? elements.compactMap { r.member(of: $0, Keys.data) } : elements.filter { r.kind($0) == .object }
    }

    /// The key indices of one item, listed once so the dozen lookups per item neither walk the
    /// tape again nor go through closures; reused from item to item.
    struct MemberTable {
        var keys: [Int] = []

        mutating func fill(_ object: Int, _ r: TapeReader) {
            keys.removeAll(keepingCapacity: true)
            r.forEachMember(of: object) { k, _ in keys.append(k) }
        }

        /// The value of `key`, the last one when duplicated (as `JSONObject` finds it).
        func value(_ key: TapeKey, _ r: TapeReader) -> Int? {
            var n = keys.count
            while n > 0 {
                n &-= 1
                if r.keyMatches(keys[n], key) { return keys[n] &+ 1 }
            }
            return nil
        }
    }

    /// `item(from:)` on the tape.
    private static func item(at i: Int, _ r: TapeReader, _ document: JSONDocument, members: inout MemberTable) -> Item {
        members.fill(i, r)
        let table = members
        func lookup(_ path: TapePath) -> Int? {
            guard var v = table.value(path.first, r) else { return nil }
            for key in path.rest {
                guard let next = r.member(of: v, key) else { return nil }
                v = next
            }
            return v
        }
        func firstText(_ paths: [TapePath]) -> String? {
            for path in paths {
                if let v = lookup(path), let text = r.scalarText(v) { return text }
            }
            return nil
        }
        func numericText(_ v: Int?) -> String? {
            guard let v else { return nil }
            switch r.kind(v) {
            case .number: return r.numberText(v)
            case .string: let s = r.string(v); return Double(s) != nil ? s : nil
            default: return nil
            }
        }
        let title = firstText(Keys.title).flatMap { $0.isEmpty ? nil : $0 } ?? firstShortString(i, r) ?? "(untitled)"
        let id = firstText(Keys.id)
        let url = firstText(Keys.url).flatMap { isHTTP($0) ? $0 : nil }
        var details: [String] = []
        details.reserveCapacity(3)
        if let author = firstText(Keys.author), !author.isEmpty { details.append(author) }
        for (path, unit) in Keys.score {
            if let n = numericText(lookup(path)) { details.append(n + unit); break }
        }
        for path in Keys.comments {
            if let n = numericText(lookup(path)) { details.append(n + " comments"); break }
        }
        var createdAt: Date?
        for path in Keys.time {
            if let v = lookup(path), let scalar = r.scalar(v), let date = Timestamp.date(from: scalar) {
                createdAt = date
                break
            }
        }
        let limit = createdAt == nil ? 3 : 2
        if details.count > limit { details.removeLast(details.count - limit) }
        return Item(id: id, title: title, details: details, url: url, createdAt: createdAt,
                    fieldsAt: JSONNode(document: document, index: i))
    }

    private static func firstShortString(_ i: Int, _ r: TapeReader) -> String? {
        var found: String?
        r.forEachMember(of: i) { _, v in
            guard found == nil, r.kind(v) == .string else { return }
            let s = r.string(v)
            if !s.isEmpty && s.count < 200 { found = s }
        }
        return found
    }
}
