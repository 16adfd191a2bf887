import Foundation

/// A fixed set of object keys, numbered in the order given, that a tape's keys are matched
/// against by length and bytes: an object's members are looked up here once, instead of each
/// rule walking them again.
///
/// Built once into plain arrays (a `Sendable` value with no pointers of its own); `withMatcher`
/// lends a matching loop raw pointers into them, so matching costs no retain or release.
package struct KeyTable: Sendable {
    /// The keys, by number.
    package let keys: [String]
    /// Per key number: its value as an array index when it is a whole number (`"0"`), else -1.
    package let indices: [Int]
    /// Every key's UTF-8, one after another.
    private let bytes: [UInt8]
    /// `[offset, length, number, prefix]` per key, sorted by length and then first byte; `prefix` is
    /// the key's first eight bytes as a little-endian word (zero-padded), compared in one go.
    private let entries: [Int]
    /// Keys of length `n` (below `maxLength`) beginning with ASCII byte `b` are the entries
    /// `starts[n * 128 + b] ..< starts[n * 128 + b + 1]` (counted in entries): a key's length and
    /// first byte leave one or two candidates to compare.
    private let starts: [Int32]
    private static let maxLength = 32

    /// - Parameter keys: distinct keys of ASCII text shorter than 32 bytes; each is numbered by its position.
    package init(_ keys: [String]) {
        precondition(Set(keys).count == keys.count, "KeyTable keys must be distinct")
        precondition(keys.allSatisfy { !$0.isEmpty && $0.utf8.count < Self.maxLength && $0.utf8.allSatisfy { $0 < 0x80 } })
        self.keys = keys
        indices = keys.map { key in key.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } ? Int(key) ?? -1 : -1 }
        var bytes: [UInt8] = []
        var offsets: [(offset: Int, length: Int, first: UInt8, number: Int)] = []
        for (number, key) in keys.enumerated() {
            offsets.append((bytes.count, key.utf8.count, key.utf8.first!, number))
            bytes += key.utf8
        }
        offsets.sort { ($0.length, $0.first, $0.number) < ($1.length, $1.first, $1.number) }
        self.bytes = bytes.isEmpty ? [0] : bytes
        entries = offsets.flatMap { entry -> [Int] in
            let prefix = bytes[entry.offset..<(entry.offset + min(8, entry.length))].enumerated()
                .reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            return [entry.offset, entry.length, entry.number, Int(bitPattern: UInt(prefix))]
        }
        // For each slot, the first entry at or past it; `offsets` is sorted by slot, so one pass.
        var starts: [Int32] = []
        starts.reserveCapacity(Self.maxLength * 128 + 1)
        var next = 0
        for slot in 0...(Self.maxLength * 128) {
            while next < offsets.count && offsets[next].length * 128 + Int(offsets[next].first) < slot { next += 1 }
            starts.append(Int32(next))
        }
        self.starts = starts
    }

    /// The number of `key`, or nil when it is not in the table.
    package func number(of key: String) -> Int? { keys.firstIndex(of: key) }

    /// Runs `body` with a matcher over this table (valid only inside `body`).
    package func withMatcher<R, E: Error>(_ body: (KeyMatcher) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = bytes.withUnsafeBufferPointer { bytes in
            entries.withUnsafeBufferPointer { entries in
                starts.withUnsafeBufferPointer { starts in
                    indices.withUnsafeBufferPointer { indices in
                        let matcher = KeyMatcher(bytes: bytes.baseAddress!, entries: entries.baseAddress, starts: starts.baseAddress!,
                                                 indices: indices, count: keys.count)
                        do throws(E) { return .success(try body(matcher)) } catch { return .failure(error) }
                    }
                }
            }
        }
        return try result.get()
    }
}

/// `KeyTable`'s arrays seen through raw pointers, valid only inside `KeyTable.withMatcher`.
package struct KeyMatcher {
    fileprivate let bytes: UnsafePointer<UInt8>
    fileprivate let entries: UnsafePointer<Int>?
    fileprivate let starts: UnsafePointer<Int32>
    fileprivate let indices: UnsafeBufferPointer<Int>
    /// How many keys the table has.
    package let count: Int

    /// The number of the key whose UTF-8 is the `length` bytes at `key`, or nil.
    /// - Parameter readable: how many bytes from `key` may be read (at least `length`): a key in a
    ///   document is followed by at least four more (`":1}`), which lets its first eight bytes be
    ///   loaded as one word.
    @inline(__always) package func number(_ key: UnsafePointer<UInt8>, length: Int, readable: Int) -> Int? {
        let first = key[0]
        guard length < 32, first < 0x80, let entries else { return nil }
        let slot = length &* 128 &+ Int(first)
        var n = Int(starts[slot])
        let end = Int(starts[slot &+ 1])
        guard n < end else { return nil }
        var word: UInt64
        if readable >= 8 {
            word = UnsafeRawPointer(key).loadUnaligned(as: UInt64.self)
            if length < 8 { word &= (1 &<< (UInt64(length) &* 8)) &- 1 }
        } else {
            word = 0
            for i in 0..<min(length, 8) { word |= UInt64(key[i]) &<< (UInt64(i) &* 8) }
        }
        while n < end {
            let entry = entries + n &* 4
            if UInt64(UInt(bitPattern: entry[3])) == word,
               length <= 8 || memcmp(bytes + entry[0] + 8, key + 8, length &- 8) == 0 {
                return entry[2]
            }
            n &+= 1
        }
        return nil
    }

    /// The number of the key at tape index `k`, or nil. Keys with escapes or non-ASCII bytes are
    /// decoded first; the table's keys are ASCII, which only an ASCII string can equal.
    @inline(__always) package func number(ofKeyAt k: Int, _ r: TapeReader) -> Int? {
        let entry = r.tape[k]
        if entry.flags == 0 {
            let start = Int(entry.start) &+ 1
            let length = Int(entry.end) &- start
            return length == 0 ? nil : number(r.base + start, length: length, readable: min(r.count &- start, length &+ 4))
        }
        var text = r.string(k)
        return text.withUTF8 { utf8 in
            guard !utf8.isEmpty, utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            return number(utf8.baseAddress!, length: utf8.count, readable: utf8.count)
        }
    }

    /// The value of key `number` in the object at `i` (the last of duplicates), or nil. On an array,
    /// a whole-number key picks that element (`artists.0.name`).
    package func member(of i: Int, _ number: Int, _ r: TapeReader) -> Int? {
        switch r.kind(i) {
        case .object:
            var found: Int?
            r.forEachMember(of: i) { k, v in if self.number(ofKeyAt: k, r) == number { found = v } }
            return found
        case .array:
            let wanted = indices[number]
            guard wanted >= 0 else { return nil }
            var found: Int?
            var n = 0
            r.forEachElement(of: i) { e in
                if n == wanted { found = e }
                n &+= 1
            }
            return found
        default:
            return nil
        }
    }
}
