import Foundation

/// Reads a document's tape through raw pointers, valid only inside `JSONDocument.withReader`.
/// Indices are tape indices; lookups follow `JSONValue`'s rules (the last of duplicated keys wins).
package struct TapeReader {
    package let base: UnsafePointer<UInt8>
    package let count: Int
    package let tape: UnsafeBufferPointer<TapeEntry>

    @inline(__always) package func kind(_ i: Int) -> TapeEntry.Kind { tape[i].kind }

    /// The tape index just past the value at `i` and everything inside it.
    @inline(__always) package func after(_ i: Int) -> Int {
        let entry = tape[i]
        return entry.kind == .object || entry.kind == .array ? Int(entry.end) : i &+ 1
    }

    /// Calls `body` with the key and value index of each member of the object at `i`, in order.
    @inline(__always) package func forEachMember(of i: Int, _ body: (_ key: Int, _ value: Int) -> Void) {
        var c = i &+ 1
        let end = Int(tape[i].end)
        while c < end {
            body(c, c &+ 1)
            c = after(c &+ 1)
        }
    }

    /// Calls `body` with the index of each element of the array at `i`, in order.
    @inline(__always) package func forEachElement(of i: Int, _ body: (Int) -> Void) {
        var c = i &+ 1
        let end = Int(tape[i].end)
        while c < end {
            body(c)
            c = after(c)
        }
    }

    package func memberCount(of i: Int) -> Int {
        var n = 0
        forEachMember(of: i) { _, _ in n += 1 }
        return n
    }

    /// The value of `key` in the object at `i`, or nil when `i` is not an object or lacks the key.
    package func member(of i: Int, named key: String) -> Int? {
        guard tape[i].kind == .object else { return nil }
        var found: Int?
        forEachMember(of: i) { k, v in if keyMatches(k, key) { found = v } }
        return found
    }

    /// Whether the key at `k` is `key`. Plain keys compare as bytes; a key with escapes or
    /// non-ASCII bytes compares as `String`s (canonical equivalence, as `JSONObject` does).
    @inline(__always) package func keyMatches(_ k: Int, _ key: String) -> Bool {
        let entry = tape[k]
        guard entry.flags == 0 else { return string(k) == key }
        let length = Int(entry.end) &- Int(entry.start) &- 1
        var key = key
        return key.withUTF8 { bytes in
            bytes.count == length && (length == 0 || memcmp(base + Int(entry.start) + 1, bytes.baseAddress!, length) == 0)
        }
    }

    /// The text of the string at `i`, unescaped. Total: invalid UTF-8 (repaired by `String(decoding:)`)
    /// and unpaired surrogate escapes become U+FFFD, and so, in a `.structure` document, do malformed
    /// escapes.
    /// - Parameter scratch: a buffer to reuse when reading many strings.
    package func string(_ i: Int, scratch: ByteBuffer? = nil) -> String {
        let entry = tape[i]
        if entry.flags & TapeEntry.escaped == 0 {
            let run = UnsafeBufferPointer(start: base + Int(entry.start) + 1, count: Int(entry.end) &- Int(entry.start) &- 1)
            return String(decoding: run, as: UTF8.self)
        }
        var scanner = JSONScanner(base: base, count: count, scratch: scratch ?? ByteBuffer())
        return scanner.recordedString(from: Int(entry.start), to: Int(entry.end))
    }

    /// The number's exact text.
    package func numberText(_ i: Int) -> String {
        let entry = tape[i]
        return String(decoding: UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end &- entry.start)), as: UTF8.self)
    }

    /// A scalar as a `JSONValue` (containers are nil): what the display rules look at.
    package func scalar(_ i: Int) -> JSONValue? {
        switch tape[i].kind {
        case .string: .string(string(i))
        case .number: .number(numberText(i))
        case .true: .bool(true)
        case .false: .bool(false)
        case .null: .null
        case .object, .array: nil
        }
    }

    /// `JSONValue.scalarText` of the value at `i`.
    package func scalarText(_ i: Int) -> String? {
        switch tape[i].kind {
        case .string: string(i)
        case .number: numberText(i)
        case .true: "true"
        case .false: "false"
        default: nil
        }
    }

    /// The value at `i` with all its contents, built from the tape.
    package func value(_ i: Int) -> JSONValue {
        value(i, scratch: ByteBuffer())
    }

    private func value(_ i: Int, scratch: ByteBuffer) -> JSONValue {
        switch tape[i].kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(numberText(i))
        case .string: return .string(string(i, scratch: scratch))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(elementCount(of: i))
            forEachElement(of: i) { elements.append(value($0, scratch: scratch)) }
            return .array(elements)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(memberCount(of: i))
            forEachMember(of: i) { k, v in members.append((string(k, scratch: scratch), value(v, scratch: scratch))) }
            return .object(JSONObject(members))
        }
    }

    package func elementCount(of i: Int) -> Int {
        var n = 0
        forEachElement(of: i) { _ in n &+= 1 }
        return n
    }
}

extension TapeReader {
    /// `Timestamp.date(from:)` of the value at `i`, reading a plain string's bytes in place.
    package func date(_ i: Int) -> Date? {
        let entry = tape[i]
        switch entry.kind {
        case .string where entry.flags & TapeEntry.escaped == 0:
            let start = Int(entry.start) &+ 1
            let bytes = UnsafeBufferPointer(start: base + start, count: Int(entry.end) &- start)
            return Timestamp.iso8601(bytes: bytes) ?? Timestamp.seconds(String(decoding: bytes, as: UTF8.self), minimum: 1e8)
        case .string, .number: return scalar(i).flatMap(Timestamp.date(from:))
        default: return nil
        }
    }

    /// The keys (and element numbers) from the root to the value at `target`: `["data", "children"]`.
    package func path(to target: Int) -> [String] {
        var path: [String] = []
        var current = 0
        while current != target {
            var next: Int?
            switch kind(current) {
            case .object:
                forEachMember(of: current) { k, v in
                    if next == nil, v <= target, target < after(v) { next = v; path.append(string(k)) }
                }
            case .array:
                var n = 0
                forEachElement(of: current) { e in
                    if next == nil, e <= target, target < after(e) { next = e; path.append(String(n)) }
                    n &+= 1
                }
            default: break
            }
            guard let next else { return path }
            current = next
        }
        return path
    }
}
