import Foundation

/// Counts what the values at each path of some items look like (`PathEvidence`), on the tape and
/// without making a `String`: every member of each item, down to five components, objects opened,
/// arrays of objects seen through their first element (`authors.*.name`), arrays of strings through
/// their first string (`title.0`).
///
/// Bounded whatever the server sends: at most `maxPaths` paths, `maxLeaves` values an item. Its
/// tables are raw memory owned by the collector (one allocation each per page, no copy on write in
/// the loop); it lives inside the document's `withReader`, as its `TapeReader` does.
final class EvidenceCollector {
    let r: TapeReader
    /// The page's host, lowercase, to tell its own links from others (`ValueShape.ownHost`).
    private let host: [UInt8]
    // Grown by doubling from a size that fits most pages: a page's reading allocates little (a large
    // block freed at the top of the heap would be handed back to the system and faulted in again).
    @exclusivity(unchecked) private var evidence: UnsafeMutablePointer<PathEvidence>
    /// The hash of each path, by index.
    @exclusivity(unchecked) private var pathHashes: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var capacity = 64
    /// Open addressing from a path's hash to its index + 1 (0: empty).
    private let pathTable: UnsafeMutablePointer<Int32>
    // The counters are read and written on every value: unchecked, so each access costs no dynamic
    // exclusivity bookkeeping. Safe: the collector is used by one caller at a time, inside one
    // `withReader`, and none of its methods hands out access to them.
    /// Open addressing set of (path, value) hashes seen, for `distinct` (0: empty).
    @exclusivity(unchecked) private var valueTable: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var valueCapacity = 1024
    @exclusivity(unchecked) private var valueCount = 0
    /// Paths so far.
    @exclusivity(unchecked) private(set) var count = 0
    /// Items counted so far.
    @exclusivity(unchecked) private(set) var items = 0
    @exclusivity(unchecked) private var leaves = 0

    static let maxPaths = 384
    static let maxDepth = 5
    static let maxLeaves = 200
    /// How many strings of a path have their shape looked at.
    static let maxShaped = 6
    private static let pathTableSize = 1024

    init(_ r: TapeReader, baseURL: URL? = nil) {
        self.r = r
        host = Array((baseURL?.host ?? "").lowercased().utf8)
        evidence = .allocate(capacity: capacity)
        pathHashes = .allocate(capacity: capacity)
        pathTable = .allocate(capacity: Self.pathTableSize)
        pathTable.initialize(repeating: 0, count: Self.pathTableSize)
        valueTable = .allocate(capacity: valueCapacity)
        valueTable.initialize(repeating: 0, count: valueCapacity)
    }

    deinit {
        evidence.deinitialize(count: count)
        evidence.deallocate()
        pathHashes.deallocate()
        pathTable.deallocate()
        valueTable.deallocate()
    }

    /// The evidence of each path, by index.
    var paths: [PathEvidence] { Array(UnsafeBufferPointer(start: evidence, count: count)) }

    /// Counts the object at `i` as one more item; its keys' names are read through `words`.
    func add(item i: Int, words: KeyWords.Reader) {
        leaves = 0
        host.withUnsafeBufferPointer { host in
            walk(object: i, parent: -1, hash: 0xcbf2_9ce4_8422_2325, hint: KeyWords.Hint(), depth: 0,
                 words: words, host: host.isEmpty ? nil : host)
        }
        items &+= 1
    }

    private func walk(object i: Int, parent: Int32, hash: UInt64, hint: KeyWords.Hint, depth: Int, words: KeyWords.Reader,
                      host: UnsafeBufferPointer<UInt8>?) {
        var c = i &+ 1
        let end = Int(r.tape[i].end)
        while c < end, leaves < Self.maxLeaves {
            let k = c, v = c &+ 1
            c = r.after(v)
            let entry = r.tape[k]
            let start = Int(entry.start) &+ 1
            let keyBytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
            let pathHash = Self.mix(hash, Self.fnv(keyBytes))
            guard let p = path(pathHash, parent: parent, key: Int32(k), depth: depth &+ 1, keyBytes: keyBytes, parentHint: hint,
                               words: words) else { continue }
            record(v, at: p, hash: pathHash, depth: depth &+ 1, words: words, host: host)
        }
    }

    /// The index of the path with `hash`, made now if new (nil when there is no room for more); a new
    /// path's hint is its key's words under its parent's (an array step's is its parent's).
    private func path(_ hash: UInt64, parent: Int32, key: Int32, depth: Int, keyBytes: UnsafeBufferPointer<UInt8>?,
                      parentHint: KeyWords.Hint, words: KeyWords.Reader) -> Int? {
        let mask = Self.pathTableSize &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let found = Int(pathTable[slot])
            if found == 0 { break }
            if pathHashes[found &- 1] == hash { return found &- 1 }
            slot = (slot &+ 1) & mask
        }
        guard count < Self.maxPaths else { return nil }
        if count == capacity { growPaths() }
        let own = keyBytes.map { words.hint($0) }
        let hint = own.map { $0.under(parentHint) } ?? parentHint
        (evidence + count).initialize(to: PathEvidence(parent: parent, key: key, depth: UInt8(depth), order: UInt16(count), hint: hint,
                                                       own: own ?? parentHint))
        pathHashes[count] = hash
        count &+= 1
        pathTable[slot] = Int32(count)
        return count &- 1
    }

    private func record(_ v: Int, at p: Int, hash: UInt64, depth: Int, words: KeyWords.Reader, host: UnsafeBufferPointer<UInt8>?) {
        leaves &+= 1
        let entry = r.tape[v]
        let e = evidence + p
        // An empty string is as good as none: it counts as missing.
        if entry.kind != .null, entry.kind != .string || entry.end > entry.start &+ 1, e.pointee.lastItem != Int32(items) {
            e.pointee.lastItem = Int32(items)
            e.pointee.present &+= 1
        }
        switch entry.kind {
        case .string:
            let start = Int(entry.start) &+ 1
            let bytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
            if bytes.isEmpty {
                e.pointee.empty &+= 1
                return
            }
            e.pointee.strings &+= 1
            e.pointee.bytes &+= UInt32(truncatingIfNeeded: bytes.count)
            if seen(p, Self.valueHash(bytes)) { e.pointee.distinct &+= 1 }
            // The shapes of a path's first strings stand for all of them: each shape costs a pass over its bytes.
            guard e.pointee.shaped < Self.maxShaped else { return }
            let (shape, words) = ValueShape.of(bytes, host: host)
            e.pointee.shaped &+= 1
            e.pointee.shapes.add(shape)
            if shape.contains(.date), bytes.count >= 16 { e.pointee.dateTimes &+= 1 }
            if shape.contains(.numeric), bytes.count == 4, bytes[0] == 0x31 || bytes[0] == 0x32 { e.pointee.years &+= 1 }
            let w = UInt16(truncatingIfNeeded: Swift.min(words, 65_535))
            if w < e.pointee.minWords { e.pointee.minWords = w }
            if w > e.pointee.maxWords { e.pointee.maxWords = w }
        case .number:
            let bytes = UnsafeBufferPointer(start: r.base + Int(entry.start), count: Int(entry.end &- entry.start))
            e.pointee.numbers &+= 1
            // Digits before any fraction or exponent, and whether there is one.
            var digits = 0, whole = true
            for b in bytes {
                if b >= 0x30 && b <= 0x39 {
                    if whole { digits &+= 1 }
                } else if b != 0x2D {
                    whole = false
                }
            }
            if whole {
                if digits == 4, bytes[0] == 0x31 || bytes[0] == 0x32 { e.pointee.years &+= 1 }
                e.pointee.integers &+= 1
                if bytes.first == 0x2D { e.pointee.negatives &+= 1 }
                if digits == 1, bytes.last == 0x30 { e.pointee.zeros &+= 1 }
            }
            if (9...13).contains(digits), bytes.first != 0x2D { e.pointee.epochs &+= 1 }
            if seen(p, Self.valueHash(bytes)) { e.pointee.distinct &+= 1 }
        case .true, .false:
            e.pointee.booleans &+= 1
        case .null:
            break
        case .object:
            e.pointee.objects &+= 1
            if depth < Self.maxDepth {
                walk(object: v, parent: Int32(p), hash: hash, hint: e.pointee.hint, depth: depth, words: words, host: host)
            }
        case .array:
            e.pointee.arrays &+= 1
            guard depth < Self.maxDepth, entry.end > UInt32(v &+ 1) else { return }
            let first = v &+ 1
            // CSL's date parts: `[[2022, 7, 26]]`.
            if r.kind(first) == .array, first &+ 1 < Int(r.tape[first].end), r.kind(first &+ 1) == .number,
               r.tape[first &+ 1].end &- r.tape[first &+ 1].start == 4 {
                e.pointee.dateParts &+= 1
                return
            }
            let step: (key: Int32, hash: UInt64)
            switch r.kind(first) {
            case .object: step = (PathEvidence.each, 0x2A2A_2A2A_2A2A_2A2A)
            case .string: step = (PathEvidence.first, 0x3030_3030_3030_3030)
            default: return
            }
            let h = Self.mix(hash, step.hash)
            if let inner = path(h, parent: Int32(p), key: step.key, depth: depth &+ 1, keyBytes: nil, parentHint: e.pointee.hint,
                                words: words) {
                record(first, at: inner, hash: h, depth: depth &+ 1, words: words, host: host)
            }
        }
    }

    /// Records that path `p` had a value of hash `value`; true when it was not seen there before.
    private func seen(_ p: Int, _ value: UInt64) -> Bool {
        if valueCount &* 2 >= valueCapacity { grow() }
        var key = value ^ (UInt64(truncatingIfNeeded: p) &* 0x9E37_79B9_7F4A_7C15)
        if key == 0 { key = 1 }
        let mask = valueCapacity &- 1
        var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while true {
            let found = valueTable[slot]
            if found == key { return false }
            if found == 0 {
                valueTable[slot] = key
                valueCount &+= 1
                return true
            }
            slot = (slot &+ 1) & mask
        }
    }

    private func growPaths() {
        let larger = capacity &* 2
        let moved = UnsafeMutablePointer<PathEvidence>.allocate(capacity: larger)
        moved.moveInitialize(from: evidence, count: count)
        evidence.deallocate()
        evidence = moved
        let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: larger)
        hashes.update(from: pathHashes, count: count)
        pathHashes.deallocate()
        pathHashes = hashes
        capacity = larger
    }

    private func grow() {
        let old = valueTable, oldCapacity = valueCapacity
        valueCapacity &*= 2
        valueTable = .allocate(capacity: valueCapacity)
        valueTable.initialize(repeating: 0, count: valueCapacity)
        let mask = valueCapacity &- 1
        for i in 0..<oldCapacity where old[i] != 0 {
            let key = old[i]
            var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while valueTable[slot] != 0 { slot = (slot &+ 1) & mask }
            valueTable[slot] = key
        }
        old.deallocate()
    }

    /// FNV-1a of a key's bytes.
    @inline(__always) static func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// A path's hash: its parent's with one more component.
    @inline(__always) static func mix(_ parent: UInt64, _ component: UInt64) -> UInt64 {
        var h = (parent ^ (component &+ 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return h
    }

    /// A value's hash from its length, its first 48 bytes and its last 16: two headlines that share
    /// a long beginning still differ at the end.
    @inline(__always) static func valueHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let head = Swift.min(bytes.count, 48)
        for i in 0..<head {
            hash ^= UInt64(bytes[i])
            hash = hash &* 0x0000_0100_0000_01b3
        }
        if bytes.count > head {
            for i in Swift.max(head, bytes.count &- 16)..<bytes.count {
                hash ^= UInt64(bytes[i])
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }
}
