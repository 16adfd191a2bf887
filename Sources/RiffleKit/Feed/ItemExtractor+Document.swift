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

    /// The items of a page read back from the disk cache, whose bytes were fully checked before they
    /// were stored: only the structure is checked again (`JSONDocument.Validation.structure`), so
    /// truncated or garbled bytes still throw, while a string damaged in place reads with U+FFFD.
    /// - Throws: `RiffleError.invalidJSON` or `RiffleError.noItems`.
    public static func items(inStoredPage data: Data) throws(RiffleError) -> [Item] {
        let document: JSONDocument
        do { document = try JSONDocument(data, validation: .structure) } catch {
            throw .invalidJSON(offset: error.offset, reason: error.reason)
        }
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
            let found = FoundKeys()
            defer { found.free() }
            return array.map { item(at: $0, reader, document, found) }
        }
    }

    /// The extractor's key lists as slot-numbered paths (see `KeySlots`).
    private enum Keys {
        static let title = LookupPaths(titleKeys)
        static let id = LookupPaths(idKeys)
        static let url = LookupPaths(urlKeys)
        static let author = LookupPaths(authorKeys)
        static let score = LookupPaths(scoreKeys.map(\.0), units: scoreKeys.map { " " + $0.1 })
        static let comments = LookupPaths(commentKeys, units: commentKeys.map { _ in " comments" })
        static let time = LookupPaths(timeKeys)
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

    /// `item(from:)` on the tape. The item's members are read once into `found` (one slot per
    /// wanted key), so each rule is a slot read rather than a walk over the keys.
    private static func item(at i: Int, _ r: TapeReader, _ document: JSONDocument, _ found: FoundKeys) -> Item {
        found.fill(i, r)
        func lookup(_ path: LookupPath) -> Int? {
            let first = found[path.slot]
            guard first >= 0 else { return nil }
            var v = first
            for key in path.rest {
                guard let next = r.member(of: v, key) else { return nil }
                v = next
            }
            return v
        }
        func firstText(_ paths: LookupPaths) -> String? {
            for path in paths.paths {
                if let v = lookup(path), let text = r.scalarText(v) { return text }
            }
            return nil
        }
        /// The first path whose value reads as a number, as that number's text and the path's unit.
        func firstNumber(_ paths: LookupPaths) -> String? {
            for (n, path) in paths.paths.enumerated() {
                guard let v = lookup(path) else { continue }
                let unit = paths.units[n]
                switch r.kind(v) {
                case .number: return r.numberText(v, appending: unit)
                case .string:
                    let s = r.string(v)
                    if Double(s) != nil { return s + unit.text }
                default: continue
                }
            }
            return nil
        }
        let title = firstText(Keys.title).flatMap { $0.isEmpty ? nil : $0 } ?? firstShortString(i, r) ?? "(untitled)"
        let id = firstText(Keys.id)
        let url = firstText(Keys.url).flatMap { isHTTP($0) ? $0 : nil }
        var details: [String] = []
        details.reserveCapacity(3)
        if let author = firstText(Keys.author), !author.isEmpty { details.append(author) }
        if let score = firstNumber(Keys.score) { details.append(score) }
        if let comments = firstNumber(Keys.comments) { details.append(comments) }
        var createdAt: Date?
        for path in Keys.time.paths {
            if let v = lookup(path), let date = r.date(v) {
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

/// Every key that begins one of the extractor's paths, numbered: an item's members are matched
/// against this table once, by length and first byte before comparing bytes.
///
/// Reference-free and written once (like `TapeKey`), so matching costs no retain or release.
private struct KeySlots: @unchecked Sendable {  // points at memory written once and never freed or changed
    /// The keys grouped by length: those of length `n` are `keys[bucket[n] ..< bucket[n + 1]]`.
    let keys: UnsafeBufferPointer<(key: TapeKey, slot: Int)>
    let bucket: UnsafeBufferPointer<Int>
    let count: Int
    /// Slot numbers by key text, for preparing paths.
    let slotOfKey: [String: Int]

    static let shared = KeySlots(ItemExtractor.titleKeys + ItemExtractor.idKeys + ItemExtractor.urlKeys
        + ItemExtractor.authorKeys + ItemExtractor.scoreKeys.map(\.0) + ItemExtractor.commentKeys + ItemExtractor.timeKeys)

    private init(_ paths: [String]) {
        var texts: [String] = []
        var slots: [String: Int] = [:]
        for path in paths {
            let first = String(path.split(separator: ".", omittingEmptySubsequences: true).first ?? "")
            if slots[first] == nil { slots[first] = texts.count; texts.append(first) }
        }
        let sorted = texts.map { (key: TapeKey($0), slot: slots[$0]!) }.sorted { $0.key.length < $1.key.length }
        let maxLength = sorted.last?.key.length ?? 0
        let bucket = UnsafeMutableBufferPointer<Int>.allocate(capacity: maxLength + 2)
        for n in 0...(maxLength + 1) { bucket[n] = sorted.firstIndex { $0.key.length >= n } ?? sorted.count }
        let keys = UnsafeMutableBufferPointer<(key: TapeKey, slot: Int)>.allocate(capacity: max(1, sorted.count))
        _ = keys.initialize(from: sorted)
        self.keys = UnsafeBufferPointer(rebasing: keys[0..<sorted.count])
        self.bucket = UnsafeBufferPointer(bucket)
        count = texts.count
        slotOfKey = slots
    }

    /// The slot of the key whose plain ASCII bytes are `bytes`, or nil when it is not wanted.
    @inline(__always) func slot(_ bytes: UnsafePointer<UInt8>, length: Int) -> Int? {
        guard length &+ 1 < bucket.count else { return nil }
        var n = bucket[length]
        let end = bucket[length &+ 1]
        while n < end {
            let entry = keys[n]
            if entry.key.bytes[0] == bytes[0], memcmp(entry.key.bytes, bytes, length) == 0 { return entry.slot }
            n &+= 1
        }
        return nil
    }

    /// The slot of a key with escapes or non-ASCII bytes, compared as `String`s (as `JSONObject` does).
    func slot(text: String) -> Int? {
        for entry in keys where entry.key.text == text { return entry.slot }
        return nil
    }
}

/// One path of a key list: the slot of its first key, and the keys below it (`user.login`).
private struct LookupPath {
    let slot: Int
    let rest: UnsafeBufferPointer<TapeKey>
}

/// A key list prepared once, with an optional unit per path (`" points"`); reference-free.
private struct LookupPaths: @unchecked Sendable {  // points at memory written once and never freed or changed
    let paths: UnsafeBufferPointer<LookupPath>
    let units: UnsafeBufferPointer<TapeKey>

    init(_ dotted: [String], units: [String] = []) {
        let slots = KeySlots.shared.slotOfKey
        let prepared = dotted.map { text in
            let path = TapePath(text)
            return LookupPath(slot: slots[path.first.text]!, rest: path.rest)
        }
        let paths = UnsafeMutableBufferPointer<LookupPath>.allocate(capacity: max(1, prepared.count))
        _ = paths.initialize(from: prepared)
        self.paths = UnsafeBufferPointer(rebasing: paths[0..<prepared.count])
        let keys = UnsafeMutableBufferPointer<TapeKey>.allocate(capacity: max(1, units.count))
        _ = keys.initialize(from: units.map(TapeKey.init))
        self.units = UnsafeBufferPointer(rebasing: keys[0..<units.count])
    }
}

/// The value index of each wanted key of one item (-1 when absent), reused from item to item.
/// Owns its memory: `free()` it once done.
private struct FoundKeys {
    private let values: UnsafeMutablePointer<Int>
    private let slots = KeySlots.shared

    init() { values = .allocate(capacity: max(1, KeySlots.shared.count)) }
    func free() { values.deallocate() }

    @inline(__always) subscript(slot: Int) -> Int { values[slot] }

    /// Reads the members of the object at `object`; the last of duplicated keys wins, as in `JSONObject`.
    func fill(_ object: Int, _ r: TapeReader) {
        values.update(repeating: -1, count: slots.count)
        r.forEachMember(of: object) { k, v in
            let entry = r.tape[k]
            let slot: Int?
            if entry.flags == 0 {
                let start = Int(entry.start) &+ 1
                let length = Int(entry.end) &- start
                slot = length == 0 ? nil : slots.slot(r.base + start, length: length)
            } else {
                slot = slots.slot(text: r.string(k))
            }
            if let slot { values[slot] = v }
        }
    }
}

extension TapeReader {
    /// The number's text followed by `unit`, built as one string.
    func numberText(_ i: Int, appending unit: TapeKey) -> String {
        let entry = tape[i]
        let length = Int(entry.end &- entry.start)
        return String(unsafeUninitializedCapacity: length &+ unit.length, initializingUTF8With: { (buffer: UnsafeMutableBufferPointer<UInt8>) -> Int in
            let out = buffer.baseAddress!
            out.update(from: base + Int(entry.start), count: length)
            (out + length).update(from: unit.bytes, count: unit.length)
            return length &+ unit.length
        })
    }

    /// `Timestamp.date(from:)` of the value at `i`, reading a plain string's bytes in place.
    func date(_ i: Int) -> Date? {
        let entry = tape[i]
        switch entry.kind {
        case .string where entry.flags & TapeEntry.escaped == 0:
            let start = Int(entry.start) &+ 1
            return Timestamp.iso8601(bytes: UnsafeBufferPointer(start: base + start, count: Int(entry.end) &- start))
        case .string, .number: return scalar(i).flatMap(Timestamp.date(from:))
        default: return nil
        }
    }
}
