import Foundation

/// Reads one page's items from its tape with `ItemRules`: finds the item array, then each item's
/// parts. Lives inside `ItemExtractor.list` (its pointers are valid only there); `free()` it once done.
struct ItemReader {
    let r: TapeReader
    let rules: ItemRules.View
    /// The value index of each table key in each loaded object (-1 when absent): the item is
    /// layer 0, the objects it is looked into (`attributes`, `snippet`...) the layers after it.
    private let slots: UnsafeMutablePointer<Int>
    /// The slots each layer set, so the next fill resets only those (an item sets a dozen of
    /// the table's hundred-odd keys).
    private let written: UnsafeMutablePointer<Int>
    private let writtenCount: UnsafeMutablePointer<Int>
    /// The object of each layer.
    private let objects: UnsafeMutablePointer<Int>
    private let keyCount: Int
    private var layers = 0
    private static let maxLayers = 4

    init(_ r: TapeReader, _ rules: ItemRules.View) {
        self.r = r
        self.rules = rules
        keyCount = rules.matcher.count
        slots = .allocate(capacity: max(1, keyCount * Self.maxLayers))
        slots.initialize(repeating: -1, count: max(1, keyCount * Self.maxLayers))
        written = .allocate(capacity: max(1, keyCount * Self.maxLayers))
        writtenCount = .allocate(capacity: Self.maxLayers)
        writtenCount.initialize(repeating: 0, count: Self.maxLayers)
        objects = .allocate(capacity: Self.maxLayers)
    }

    func free() {
        slots.deallocate()
        written.deallocate()
        writtenCount.deallocate()
        objects.deallocate()
    }

    // MARK: The item array

    /// The array the items are in, found without a path (see `ItemExtractor`).
    /// - Throws: `FeedError.scalarItems` for an array of scalars alone, `.noItems` for no array.
    mutating func findArray() throws(FeedError) -> Int {
        switch r.kind(0) {
        case .array:
            let (count, objects) = census(0)
            if count == 0 || objects > 0 { return 0 }
            throw scalarItems(0)
        case .object:
            break
        default:
            throw .noItems(keys: [])
        }
        // JSON:API (and any `{"data": [...]}`): the root's `data` is the primary list, whatever else
        // (`included`) is larger.
        if let data = rules.matcher.member(of: 0, Self.dataKey, r), r.kind(data) == .array {
            let (count, objects) = census(data)
            if count == 0 || objects > 0 { return data }
        }
        var candidates: [(array: Int, objects: Int)] = []
        var firstEmpty: Int?
        var largestScalars: (array: Int, count: Int)?
        func visit(_ i: Int, depth: Int) {
            guard depth < 8 else { return }
            switch r.kind(i) {
            case .array:
                let (count, objects) = census(i)
                if objects > 0, objects * 2 >= count {
                    candidates.append((i, objects))
                } else if count == 0 {
                    if firstEmpty == nil { firstEmpty = i }
                } else if count > largestScalars?.count ?? 0 {
                    largestScalars = (i, count)
                }
                // Arrays nested in items (tags, comments) are never the list.
            case .object:
                r.forEachMember(of: i) { _, v in visit(v, depth: depth + 1) }
            default: break
            }
        }
        visit(0, depth: 0)
        if candidates.count == 1 { return candidates[0].array }
        if !candidates.isEmpty {
            // Several lists (Discourse's `users` beside `topic_list.topics`): the one whose items have
            // titles and times, then the one with the most objects; the first on a tie.
            var best = candidates[0], bestQuality = quality(best.array)
            for candidate in candidates.dropFirst() {
                let q = quality(candidate.array)
                if q > bestQuality || (q == bestQuality && candidate.objects > best.objects) {
                    best = candidate
                    bestQuality = q
                }
            }
            return best.array
        }
        if let firstEmpty { return firstEmpty }
        if let largestScalars { throw scalarItems(largestScalars.array) }
        var keys: [String] = []
        r.forEachMember(of: 0) { k, _ in keys.append(r.string(k)) }
        throw .noItems(keys: keys)
    }

    /// The array at a configured path.
    /// - Throws: `FeedError.noItems` when there is no array there, `.scalarItems` when it holds only scalars.
    func array(at path: [String]) throws(FeedError) -> Int {
        guard let array = r.value(0, at: path), r.kind(array) == .array else {
            var keys: [String] = []
            if r.kind(0) == .object { r.forEachMember(of: 0) { k, _ in keys.append(r.string(k)) } }
            throw .noItems(keys: keys)
        }
        let (count, objects) = census(array)
        if count == 0 || objects > 0 { return array }
        throw scalarItems(array)
    }

    private static let dataKey = ItemRules.standard.keys.number(of: "data")!

    /// How many elements the array at `i` has, and how many of them are objects.
    private func census(_ i: Int) -> (count: Int, objects: Int) {
        var count = 0, objects = 0
        r.forEachElement(of: i) { e in
            count &+= 1
            if r.kind(e) == .object { objects &+= 1 }
        }
        return (count, objects)
    }

    /// 2 for items with a title key, plus 1 for a time key, judged on the first three objects.
    private mutating func quality(_ array: Int) -> Int {
        var flags: UInt8 = 0, seen = 0
        r.forEachElement(of: array) { e in
            guard seen < 3, r.kind(e) == .object else { return }
            seen += 1
            flags |= load(e).flags
        }
        return (flags & ItemRules.titleFlag != 0 ? 2 : 0) + (flags & ItemRules.timeFlag != 0 ? 1 : 0)
    }

    /// `FeedError.scalarItems` describing the array at `i`.
    private func scalarItems(_ i: Int) -> FeedError {
        var count = 0
        var kinds = Set<TapeEntry.Kind>()
        r.forEachElement(of: i) { e in
            count &+= 1
            let kind = r.kind(e)
            kinds.insert(kind == .false ? .true : kind)
        }
        let kind: String
        switch kinds.count == 1 ? kinds.first : nil {
        case .number?: kind = count == 1 ? "number" : "numbers"
        case .string?: kind = count == 1 ? "string" : "strings"
        case .true?: kind = count == 1 ? "boolean" : "booleans"
        case .null?: kind = count == 1 ? "null" : "nulls"
        case .array?: kind = count == 1 ? "array" : "arrays"
        default: kind = count == 1 ? "value" : "values"
        }
        return .scalarItems(count: count, kind: kind, path: r.path(to: i).joined(separator: "."))
    }

    // MARK: One item

    /// Loads the object at `i` into the slots: unwrapped when it is a wrapper (`{kind, data}`), with
    /// the objects it is looked into as further layers. Returns the item's object and the title and
    /// time flags seen.
    @discardableResult
    private mutating func load(_ i: Int) -> (object: Int, flags: UInt8) {
        var object = i
        var flags = fill(0, object)
        if flags & (ItemRules.titleFlag | ItemRules.timeFlag) == 0 {
            for wrapper in rules.wrappers {
                let inner = slots[wrapper]
                if inner >= 0, r.kind(inner) == .object {
                    object = inner
                    flags = fill(0, object)
                    break
                }
            }
        }
        layers = 1
        for key in rules.lookInto where layers < Self.maxLayers {
            let inner = slots[key]
            if inner >= 0, r.kind(inner) == .object {
                flags |= fill(layers, inner)
                layers += 1
            }
        }
        return (object, flags)
    }

    /// Records where each table key is in the object at `i`, as layer `layer`; the last of
    /// duplicated keys wins, as in `JSONObject`.
    private func fill(_ layer: Int, _ i: Int) -> UInt8 {
        let base = slots + layer &* keyCount
        let record = written + layer &* keyCount
        for j in 0..<writtenCount[layer] { base[record[j]] = -1 }
        var count = 0
        objects[layer] = i
        var flags: UInt8 = 0
        r.forEachMember(of: i) { k, v in
            if let n = rules.matcher.number(ofKeyAt: k, r) {
                if base[n] < 0 {
                    record[count] = n
                    count &+= 1
                }
                base[n] = v
                flags |= rules.flags(of: n)
            }
        }
        writtenCount[layer] = count
        return flags
    }

    /// The first value of `part` that `accept` takes, trying each path on every layer in turn.
    @inline(__always) private func first<T>(_ part: ItemRules.Part, _ accept: (Int, Int) -> T?) -> T? {
        rules.first(part) { unit, key, rest in
            for layer in 0..<layers {
                var v = slots[layer &* keyCount &+ key]
                guard v >= 0 else { continue }
                var found = true
                for next in rest {
                    guard let child = rules.matcher.member(of: v, next, r) else { found = false; break }
                    v = child
                }
                if found, let value = accept(v, unit) { return value }
            }
            return nil
        }
    }

    /// The item at `i` (an object), with `mapping` over the found parts.
    mutating func item(at i: Int, mapping: ItemExtractor.PreparedMapping?, document: JSONDocument) -> Item {
        let object = load(i).object
        let title = first(.title) { v, _ in text(v) } ?? firstShortString() ?? "(untitled)"
        let id = first(.id) { v, _ in r.kind(v) == .string || r.kind(v) == .number ? r.scalarText(v) : nil }
        let url = first(.link) { v, _ in link(v, guessed: true) }
        let createdAt = first(.time) { v, _ in r.date(v) }
        let author = first(.author) { v, _ in text(v) }
        // A count of zero says little in a list ("0 reactions"): the next path is tried instead.
        let score = first(.score) { v, unit in count(v, unit: unit) }
        let comments = first(.comments) { v, unit in count(v, unit: unit) }
        var details: [String] = []
        details.reserveCapacity(3)
        if let author { details.append(author) }
        if let score { details.append(score) }
        // Two facts beside an age, three without.
        if let comments, details.count < (createdAt == nil ? 3 : 2) { details.append(comments) }
        var item = Item(id: id, title: title, details: details, url: url, createdAt: createdAt,
                        fieldsAt: JSONNode(document: document, index: object))
        item.author = author
        // "142 points": the digits `count` kept, as a number to sort by.
        item.score = score.flatMap { text in
            Int(String(decoding: text.utf8.prefix { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }, as: UTF8.self))
        }
        if let mapping { apply(mapping, to: &item, object: object) }
        return item
    }

    /// A configured mapping over the found parts: each mapped part is what its path holds.
    private func apply(_ mapping: ItemExtractor.PreparedMapping, to item: inout Item, object: Int) {
        if let path = mapping.title, let v = r.value(object, at: path), let title = text(v) { item.title = title }
        if let path = mapping.id { item.id = r.value(object, at: path).flatMap { r.scalarText($0) } }
        if let path = mapping.link { item.url = r.value(object, at: path).flatMap { link($0, guessed: false) } }
        if let path = mapping.time { item.createdAt = r.value(object, at: path).flatMap { r.date($0) } }
        if !mapping.subtitle.isEmpty {
            item.details = mapping.subtitle.compactMap { path in r.value(object, at: path).flatMap { text($0) } }
        }
    }

    /// A string's or number's text, made fit for one line; nil when empty.
    private func text(_ v: Int) -> String? {
        switch r.kind(v) {
        case .string:
            let entry = r.tape[v]
            if entry.flags & TapeEntry.escaped == 0 {
                // Most titles need nothing done: their bytes are checked where they lie.
                let start = Int(entry.start) &+ 1
                let bytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
                if bytes.isEmpty { return nil }
                if !DisplayText.needsWork(bytes) { return String(decoding: bytes, as: UTF8.self) }
            }
            let text = DisplayText.line(r.string(v))
            return text.isEmpty ? nil : text
        case .number: return r.numberText(v)
        default: return nil
        }
    }

    /// An http(s) URL; a guessed one must not be an API endpoint.
    private func link(_ v: Int, guessed: Bool) -> String? {
        let entry = r.tape[v]
        guard entry.kind == .string else { return nil }
        // Judged on the bytes where they lie (a URL rarely has escapes), so a rejected one costs no string.
        let start = Int(entry.start) &+ 1
        let bytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
        guard bytes.count >= 4, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"), bytes[2] == UInt8(ascii: "t"),
              bytes[3] == UInt8(ascii: "p") else { return nil }
        if guessed, entry.flags & TapeEntry.escaped == 0, ItemExtractor.isAPIEndpoint(bytes) { return nil }
        let text = r.string(v)
        // A non-ASCII byte after "http" could start a combining mark: `isHTTP` asks `Character`.
        guard bytes.count == 4 || bytes[4] < 0x80 || ItemExtractor.isHTTP(text) else { return nil }
        // An escaped URL (`https:\/\/api.x.org`) is judged once unescaped.
        guard !guessed || entry.flags & TapeEntry.escaped == 0 || !ItemExtractor.isAPIEndpoint(text) else { return nil }
        return text
    }

    /// A whole number other than zero with its unit: "1 point", "12 points", "2 replies". Never
    /// `1.0` (GitHub's search `score` is a relevance, not a count).
    private func count(_ v: Int, unit: Int) -> String? {
        let entry = r.tape[v]
        let start: Int, end: Int
        switch entry.kind {
        case .number: start = Int(entry.start); end = Int(entry.end)
        case .string where entry.flags == 0: start = Int(entry.start) &+ 1; end = Int(entry.end)
        default: return nil
        }
        var i = start
        if i < end, r.base[i] == UInt8(ascii: "-") { i &+= 1 }
        guard i < end else { return nil }
        var zero = true
        while i < end {
            let digit = r.base[i] &- 48
            guard digit < 10 else { return nil }
            zero = zero && digit == 0
            i &+= 1
        }
        guard !zero else { return nil }
        let digits = UnsafeBufferPointer(start: r.base + start, count: end &- start)
        guard unit >= 0 else { return String(decoding: digits, as: UTF8.self) }
        let one = digits.count == 1 && digits[0] == UInt8(ascii: "1")
        let name = rules.unit(one ? unit : unit &+ 1)
        // Built in one piece from the digits where they lie.
        return String(unsafeUninitializedCapacity: digits.count &+ name.count) { out in
            out.baseAddress!.initialize(from: digits.baseAddress!, count: digits.count)
            (out.baseAddress! + digits.count).initialize(from: name.baseAddress!, count: name.count)
            return digits.count &+ name.count
        }
    }

    /// The first short string of the item or an object it is looked into, for an item with no title key.
    private func firstShortString() -> String? {
        var found: String?
        for layer in 0..<layers where found == nil {
            r.forEachMember(of: objects[layer]) { _, v in
                guard found == nil, r.kind(v) == .string else { return }
                let text = r.string(v)
                if !text.isEmpty, text.utf8.count < 400, text.count < 200, !ItemExtractor.isHTTP(text) {
                    found = DisplayText.line(text)
                }
            }
        }
        return found.flatMap { $0.isEmpty ? nil : $0 }
    }
}
