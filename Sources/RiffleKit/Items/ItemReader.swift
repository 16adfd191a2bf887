import Foundation

/// Reads a page's items by its plan (`CompiledPlan`): each part from the first of its paths that
/// holds a usable value. Lives inside `ItemExtractor.read`, where its reader is valid; it holds raw
/// pointers only, so reading an item retains nothing but what the item keeps.
struct ItemReader {
    let r: TapeReader
    let view: CompiledPlan.View
    /// Per first key of the plan (`view.firstKeys`), its value in the item being read (-1: none).
    let slots: UnsafeMutablePointer<Int32>

    /// The item of `object` (the element, opened when it is a wrapper), its fields left in `document`.
    /// - Parameter baseURL: what a link that is a path (`/r/swift/…`) is resolved against: the page's URL.
    func item(_ object: Int, document: JSONDocument, baseURL: URL?) -> Item {
        fill(object)
        let title = firstText(.title, object, separator: "") ?? firstShortString(object) ?? "(untitled)"
        let id = first(.id, object) { v, _ in r.kind(v) == .string || r.kind(v) == .number ? r.scalarText(v) : nil }
        let url = first(.link, object) { v, path in link(v, guessed: path.inferred, baseURL: baseURL) }
        let createdAt = first(.time, object) { v, _ in date(v) }
        // The first author of several, as a list shows one name (a title's runs are joined).
        let author = firstText(.author, object, separator: nil)
        // A count of zero says little in a list ("0 reactions"): the next path is tried instead.
        let score = first(.score, object) { v, path in count(v, unit: path.unit) }
        let comments = first(.comments, object) { v, path in count(v, unit: path.unit) }
        var details: [String] = []
        if view.subtitle.isEmpty {
            details.reserveCapacity(3)
            if let author { details.append(author) }
            if let score { details.append(score.text) }
            // Two facts beside an age, three without.
            if let comments, details.count < (createdAt == nil ? 3 : 2) { details.append(comments.text) }
        } else {
            details = view.subtitle.compactMap { p in text(object, path: p, separator: ", ") }
        }
        return Item(id: id, title: title, details: details, url: url, createdAt: createdAt, author: author, score: score?.number,
                    comments: comments?.number, fieldsAt: JSONNode(document: document, index: object))
    }

    /// The first value `read` takes from the part's paths, each path tried on the item in turn.
    private func first<T>(_ part: FieldPlan.Part, _ object: Int, _ read: (Int, CompiledPlan.Path) -> T?) -> T? {
        for p in view.paths(of: part) {
            let path = view.paths[Int(p)]
            guard let (start, rest) = start(p, object) else { continue }
            if !path.joins {
                if let v = value(start, rest), let found = read(v, path) { return found }
                continue
            }
            var found: T?
            forEachValue(start, rest) { v in
                found = read(v, path)
                return found == nil
            }
            if let found { return found }
        }
        return nil
    }

    /// Records where each of the plan's first keys is in the object at `i`, in one pass over its
    /// members; the last of duplicated keys wins, as in `JSONObject`.
    private func fill(_ i: Int) {
        let keys = view.firstKeys
        for k in 0..<keys.count { slots[k] = -1 }
        guard !keys.isEmpty else { return }
        var c = i &+ 1
        let end = Int(r.tape[i].end)
        let mask = CompiledPlan.View.tableSize &- 1
        while c < end {
            let k = c
            c = r.after(c &+ 1)
            let entry = r.tape[k]
            guard entry.flags == 0 else {
                // A key with escapes or non-ASCII bytes: compared as text with each key.
                for n in 0..<keys.count where matches(k, keys[n]) { slots[n] = Int32(k &+ 1) }
                continue
            }
            let start = Int(entry.start) &+ 1
            let length = Int(entry.end) &- start
            let word = self.word(start, length)
            var slot = CompiledPlan.View.slot(word: word, length: length)
            while true {
                let n = Int(view.table[slot])
                if n < 0 { break }
                let key = keys[n]
                if key.word == word, Int(key.length) == length,
                   length <= 8 || memcmp(r.base + start + 8, view.pool + Int(key.offset) + 8, length &- 8) == 0 {
                    slots[n] = Int32(k &+ 1)
                    break
                }
                slot = (slot &+ 1) & mask
            }
        }
    }

    /// Where path `p` continues from in the item at `object`: its first key's value (from `fill`) and
    /// the steps after it; nil when the item lacks the key.
    @inline(__always) private func start(_ p: Int32, _ object: Int) -> (Int, Range<Int>)? {
        let steps = view.paths[Int(p)].steps
        let key = Int(view.firstKeyOfPath[Int(p)])
        guard key >= 0 else { return (object, steps) }
        let v = Int(slots[key])
        return v >= 0 ? (v, (steps.lowerBound &+ 1)..<steps.upperBound) : nil
    }

    /// A key's first eight bytes (those of `length`, the rest zero) as a little-endian word.
    @inline(__always) private func word(_ start: Int, _ length: Int) -> UInt64 {
        // A key is followed by at least `":1}`, so eight bytes can be loaded at once when the
        // document goes on that far.
        if r.count &- start >= 8 {
            let word = UnsafeRawPointer(r.base + start).loadUnaligned(as: UInt64.self)
            return length < 8 ? word & ((1 &<< (UInt64(length) &* 8)) &- 1) : word
        }
        var word: UInt64 = 0
        for i in 0..<Swift.min(length, 8) { word |= UInt64(r.base[start &+ i]) &<< (UInt64(i) &* 8) }
        return word
    }

    /// The value at `steps` from `i` (no step takes every element): one loop, no closure.
    @inline(__always) private func value(_ i: Int, _ steps: Range<Int>) -> Int? {
        var current = i
        for s in steps {
            let step = view.steps[s]
            let entry = r.tape[current]
            switch entry.kind {
            case .object:
                // The last of duplicated keys wins, as in `JSONObject`.
                var found = -1
                var c = current &+ 1
                let end = Int(entry.end)
                while c < end {
                    if matches(c, step) { found = c &+ 1 }
                    c = r.after(c &+ 1)
                }
                guard found >= 0 else { return nil }
                current = found
            case .array:
                guard step.index >= 0 else { return nil }
                var c = current &+ 1
                let end = Int(entry.end)
                var n: Int32 = 0
                while c < end, n < step.index {
                    c = r.after(c)
                    n &+= 1
                }
                guard c < end else { return nil }
                current = c
            default:
                return nil
            }
        }
        return current
    }

    /// The first text the part's paths give (joined through `*`).
    private func firstText(_ part: FieldPlan.Part, _ object: Int, separator: String?) -> String? {
        for p in view.paths(of: part) {
            if let text = text(object, path: p, separator: separator) { return text }
        }
        return nil
    }

    /// The text at `path` from `object`: one value's, or through `*` every value's joined by `separator`
    /// (nil: the first value's).
    private func text(_ object: Int, path p: Int32, separator: String?) -> String? {
        guard let (start, rest) = start(p, object) else { return nil }
        if !view.paths[Int(p)].joins { return value(start, rest).flatMap(text) }
        guard let separator else {
            var found: String?
            forEachValue(start, rest) { v in
                found = text(v)
                return found == nil
            }
            return found
        }
        var parts: [String] = []
        forEachValue(start, rest) { v in
            if let text = text(v) { parts.append(text) }
            return true
        }
        guard !parts.isEmpty else { return nil }
        let joined = DisplayText.line(parts.joined(separator: separator))
        return joined.isEmpty ? nil : joined
    }

    /// Visits the values at `steps` from `i` while `body` returns true.
    @discardableResult
    private func forEachValue(_ i: Int, _ steps: Range<Int>, _ body: (Int) -> Bool) -> Bool {
        guard let s = steps.first else { return body(i) }
        let step = view.steps[s]
        let rest = (s + 1)..<steps.upperBound
        switch r.kind(i) {
        case .object:
            var found: Int?
            r.forEachMember(of: i) { k, v in if matches(k, step) { found = v } }
            guard let found else { return true }
            return forEachValue(found, rest, body)
        case .array:
            if step.each {
                var going = true
                r.forEachElement(of: i) { e in if going { going = forEachValue(e, rest, body) } }
                return going
            }
            guard step.index >= 0 else { return true }
            var element: Int?
            var n: Int32 = 0
            r.forEachElement(of: i) { e in
                if n == step.index { element = e }
                n &+= 1
            }
            guard let element else { return true }
            return forEachValue(element, rest, body)
        default:
            return true
        }
    }

    /// Whether the key at tape index `k` is the step's key.
    @inline(__always) private func matches(_ k: Int, _ step: CompiledPlan.Step) -> Bool {
        let entry = r.tape[k]
        let length = Int(step.length)
        if entry.flags == 0 {
            let start = Int(entry.start) &+ 1
            guard Int(entry.end) &- start == length else { return false }
            return word(start, length) == step.word && (length <= 8 || memcmp(r.base + start + 8, view.pool + Int(step.offset) + 8, length &- 8) == 0)
        }
        var text = r.string(k)
        return text.withUTF8 { $0.count == length && (length == 0 || memcmp($0.baseAddress!, view.pool + Int(step.offset), length) == 0) }
    }

    /// A time: ISO 8601 text or Unix seconds (`TapeReader.date`), else a year alone (`1981`, `"1808"`) as
    /// its first day, or CSL's date parts (`[[2022, 7, 26]]`, Crossref's `published.date-parts`).
    private func date(_ v: Int) -> Date? {
        switch r.kind(v) {
        case .number, .string:
            // Four digits are a year: no time of the plan's is 1970's first half hour.
            guard let text = r.scalarText(v), text.utf8.count == 4, let year = Int(text), (1000...2999).contains(year) else { return r.date(v) }
            return Self.day(year, 1, 1)
        case .array:
            guard v &+ 1 < Int(r.tape[v].end), r.kind(v &+ 1) == .array else { return nil }
            var parts: [Int] = []
            r.forEachElement(of: v &+ 1) { e in if parts.count < 3, r.kind(e) == .number, let n = Int(r.numberText(e)) { parts.append(n) } }
            guard let year = parts.first, (1000...2999).contains(year) else { return nil }
            let month = parts.count > 1 ? parts[1] : 1, day = parts.count > 2 ? parts[2] : 1
            guard (1...12).contains(month), (1...31).contains(day) else { return nil }
            return Self.day(year, month, day)
        default:
            return nil
        }
    }

    /// Midnight UTC of a day, as ISO 8601 text would read it.
    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date? {
        func digits(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return Timestamp.iso8601("\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))")
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

    /// An http(s) URL, or a path from the server's root resolved against the page's URL; an inferred
    /// one must not be the API's own.
    private func link(_ v: Int, guessed: Bool, baseURL: URL?) -> String? {
        let entry = r.tape[v]
        guard entry.kind == .string else { return nil }
        // Judged on the bytes where they lie (a URL rarely has escapes), so a rejected one costs no string.
        let start = Int(entry.start) &+ 1
        let bytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
        if let host = ValueShape.schemeEnd(bytes) {
            // The plan judged the path on its sample; an item's own URL is checked only for the plainest
            // marks of an endpoint (an `api.` host, an `/api/` path), at little cost per item.
            if guessed, ValueShape.isPlainAPI(bytes, host: host) { return nil }
            let text = r.string(v)
            // A non-ASCII byte after "http" could start a combining mark: `isHTTP` asks `Character`.
            guard bytes[4] < 0x80 || ItemExtractor.isHTTP(text) else { return nil }
            return text
        }
        // `/path` or `//host/path`: resolved as a browser would.
        guard let baseURL, bytes.count > 1, bytes[0] == UInt8(ascii: "/") else { return nil }
        if guessed, bytes[1] != UInt8(ascii: "/"), ValueShape.isPlainAPI(bytes, host: 0) { return nil }
        let text = r.string(v)
        guard !text.contains(where: \.isWhitespace), let url = URL(string: text, relativeTo: baseURL)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url.absoluteString
    }

    /// A whole number other than zero with its unit: "1 point", "12 points", "2 replies". Never
    /// `1.0` (GitHub's search `score` is a relevance, not a count).
    private func count(_ v: Int, unit: Int8) -> (text: String, number: Int?)? {
        let entry = r.tape[v]
        let start: Int, end: Int
        switch entry.kind {
        case .number: start = Int(entry.start); end = Int(entry.end)
        case .string where entry.flags == 0: start = Int(entry.start) &+ 1; end = Int(entry.end)
        default: return nil
        }
        var i = start
        let negative = i < end && r.base[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        guard i < end, end &- i <= 18 else { return nil }
        var number = 0
        while i < end {
            let digit = r.base[i] &- 48
            guard digit < 10 else { return nil }
            number = number &* 10 &+ Int(digit)
            i &+= 1
        }
        guard number != 0 else { return nil }
        if negative { number = -number }
        let digits = UnsafeBufferPointer(start: r.base + start, count: end &- start)
        guard KeyWords.units.indices.contains(Int(unit)) else { return (String(decoding: digits, as: UTF8.self), number) }
        // Built in one piece from the digits where they lie and the unit's bytes (" point", " points").
        let name = KeyWords.unitBytes[Int(unit) &* 2 &+ (number == 1 ? 0 : 1)]
        let text = name.withUnsafeBufferPointer { name in
            String(unsafeUninitializedCapacity: digits.count &+ name.count) { out in
                out.baseAddress!.initialize(from: digits.baseAddress!, count: digits.count)
                (out.baseAddress! + digits.count).initialize(from: name.baseAddress!, count: name.count)
                return digits.count &+ name.count
            }
        }
        return (text, number)
    }

    /// The first short string of the item, for an item none of whose title paths has text.
    private func firstShortString(_ object: Int, depth: Int = 0) -> String? {
        var found: String?
        r.forEachMember(of: object) { _, v in
            guard found == nil, r.kind(v) == .string else { return }
            let text = r.string(v)
            // Never a date: an item that has nothing else shows "(untitled)" beside its age.
            if !text.isEmpty, text.utf8.count < 400, text.count < 200, !ItemExtractor.isHTTP(text), !Self.isDate(text) {
                found = DisplayText.line(text)
            }
        }
        if let found, !found.isEmpty { return found }
        // Then in the objects it holds (a starred repository's `user.login`), one level down.
        guard depth == 0 else { return nil }
        var nested: String?
        r.forEachMember(of: object) { _, v in
            if nested == nil, r.kind(v) == .object { nested = firstShortString(v, depth: 1) }
        }
        return nested
    }

    /// Whether `text` reads as a date by the shape the field evidence gives it (`ValueShape.date`:
    /// it starts as an ISO 8601 date does, `2024-11-29…`).
    static func isDate(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { ValueShape.of($0, host: nil).shape.contains(.date) }
    }
}
