import Foundation

/// A key to look up in a tape, prepared once: its bytes for a plain comparison, its text for the
/// rare key that needs `String`'s Unicode-aware equality.
///
/// Plain values with no references, so the dozen lookups per item cost no retain/release (that
/// traffic was a sixth of the extraction time with `String` and `[UInt8]` members).
struct TapeKey: @unchecked Sendable {  // points at memory that is written once and never freed or changed
    let bytes: UnsafePointer<UInt8>
    let length: Int
    let isASCII: Bool

    /// Copies `text` into memory that lives as long as the process: only for the fixed key tables.
    init(_ text: String) {
        let utf8 = Array(text.utf8)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, utf8.count))
        storage.initialize(from: utf8, count: utf8.count)
        bytes = UnsafePointer(storage)
        length = utf8.count
        isASCII = utf8.allSatisfy { $0 < 0x80 }
    }

    var text: String { String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self) }
}

/// A dotted path such as `user.login`, prepared once and free of references (like `TapeKey`).
struct TapePath: @unchecked Sendable {  // `rest` points at memory written once and never freed or changed
    let first: TapeKey
    let rest: UnsafeBufferPointer<TapeKey>

    /// Only for fixed tables: the keys live as long as the process. An empty path is not a path.
    init(_ dotted: String) {
        let keys = dotted.split(separator: ".", omittingEmptySubsequences: true).map { TapeKey(String($0)) }
        first = keys.first ?? TapeKey("")
        let storage = UnsafeMutableBufferPointer<TapeKey>.allocate(capacity: max(1, keys.count - 1))
        _ = storage.initialize(from: keys.dropFirst())
        rest = UnsafeBufferPointer(rebasing: storage[0..<max(0, keys.count - 1)])
    }
}

/// Reads a document's tape through raw pointers, valid only inside `JSONDocument.withReader`.
/// Indices are tape indices; lookups follow `JSONValue`'s rules (the last of duplicated keys wins).
struct TapeReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    let tape: UnsafeBufferPointer<TapeEntry>
    /// Whether strings were left unchecked by the tape pass (`.structure`): read them leniently.
    let lenient: Bool

    @inline(__always) func kind(_ i: Int) -> TapeEntry.Kind { tape[i].kind }

    /// The tape index just past the value at `i` and everything inside it.
    @inline(__always) func after(_ i: Int) -> Int {
        let entry = tape[i]
        return entry.kind == .object || entry.kind == .array ? Int(entry.end) : i &+ 1
    }

    /// Calls `body` with the key and value index of each member of the object at `i`, in order.
    @inline(__always) func forEachMember(of i: Int, _ body: (_ key: Int, _ value: Int) -> Void) {
        var c = i &+ 1
        let end = Int(tape[i].end)
        while c < end {
            body(c, c &+ 1)
            c = after(c &+ 1)
        }
    }

    /// Calls `body` with the index of each element of the array at `i`, in order.
    @inline(__always) func forEachElement(of i: Int, _ body: (Int) -> Void) {
        var c = i &+ 1
        let end = Int(tape[i].end)
        while c < end {
            body(c)
            c = after(c)
        }
    }

    func memberCount(of i: Int) -> Int {
        var n = 0
        forEachMember(of: i) { _, _ in n += 1 }
        return n
    }

    /// The value of `key` in the object at `i`, or nil when `i` is not an object or lacks the key.
    func member(of i: Int, _ key: TapeKey) -> Int? {
        guard tape[i].kind == .object else { return nil }
        var found: Int?
        forEachMember(of: i) { k, v in if keyMatches(k, key) { found = v } }
        return found
    }

    /// The value at `path` from `i`; an empty path is `i` itself.
    func value(_ i: Int, at path: [TapeKey]) -> Int? {
        var current = i
        for key in path {
            guard let next = member(of: current, key) else { return nil }
            current = next
        }
        return current
    }

    @inline(__always) func keyMatches(_ k: Int, _ key: TapeKey) -> Bool {
        let entry = tape[k]
        guard entry.flags == 0, key.isASCII else { return string(k) == key.text }
        let length = Int(entry.end) &- Int(entry.start) &- 1
        return length == key.length && (length == 0 || memcmp(base + Int(entry.start) + 1, key.bytes, length) == 0)
    }

    /// The text of the string at `i`, unescaped. Total: in a `.structure` document, invalid UTF-8
    /// (repaired by `String(decoding:)`) and malformed escapes become U+FFFD.
    func string(_ i: Int) -> String {
        let entry = tape[i]
        if entry.flags & TapeEntry.escaped == 0 {
            let run = UnsafeBufferPointer(start: base + Int(entry.start) + 1, count: Int(entry.end) &- Int(entry.start) &- 1)
            return String(decoding: run, as: UTF8.self)
        }
        var scanner = JSONScanner(base: base, count: count)
        scanner.lenientStrings = lenient
        // Checked by the tape pass (fully, or its extent when lenient, which then accepts any
        // contents), so it cannot fail here.
        return (try? scanner.parseString(at: Int(entry.start))) ?? ""
    }

    /// The number's exact text.
    func numberText(_ i: Int) -> String {
        let entry = tape[i]
        return String(decoding: UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end &- entry.start)), as: UTF8.self)
    }

    /// A scalar as a `JSONValue` (containers are nil): what the display rules look at.
    func scalar(_ i: Int) -> JSONValue? {
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
    func scalarText(_ i: Int) -> String? {
        switch tape[i].kind {
        case .string: string(i)
        case .number: numberText(i)
        case .true: "true"
        case .false: "false"
        default: nil
        }
    }
}
