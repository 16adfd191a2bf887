import Foundation

/// Counts what the values at each path of some items look like (`PathEvidence`), on the tape and
/// without making a `String`: every member of each item, down to five components, objects opened,
/// arrays of objects seen through their first element (`authors.*.name`), arrays of strings through
/// their first string (`title.0`).
///
/// Bounded whatever the server sends: at most `maxPaths` paths, `maxLeaves` values an item.
struct EvidenceCollector {
    let r: TapeReader
    /// The page's host, lowercase, to tell its own links from others (`ValueShape.ownHost`).
    let host: [UInt8]
    private(set) var paths: [PathEvidence] = []
    /// Items counted so far.
    private(set) var items = 0
    /// The hash of each path, by index.
    private var pathHashes: [UInt64] = []
    /// Open addressing from a path's hash to its index + 1 (0: empty).
    private var pathTable: [Int32]
    /// Open addressing set of (path, value) hashes seen, for `distinct` (0: empty).
    private var valueTable: [UInt64]
    private var valueCount = 0
    private var leaves = 0

    static let maxPaths = 384
    static let maxDepth = 5
    static let maxLeaves = 200

    init(_ r: TapeReader, baseURL: URL? = nil) {
        self.r = r
        host = Array((baseURL?.host ?? "").lowercased().utf8)
        pathTable = [Int32](repeating: 0, count: 1024)
        valueTable = [UInt64](repeating: 0, count: 2048)
        paths.reserveCapacity(64)
        pathHashes.reserveCapacity(64)
    }

    /// Counts the object at `i` as one more item.
    mutating func add(item i: Int) {
        leaves = 0
        walk(object: i, parent: -1, hash: 0xcbf2_9ce4_8422_2325, hint: KeyWords.Hint(), depth: 0)
        items += 1
    }

    private mutating func walk(object i: Int, parent: Int32, hash: UInt64, hint: KeyWords.Hint, depth: Int) {
        var c = i &+ 1
        let end = Int(r.tape[i].end)
        while c < end, leaves < Self.maxLeaves {
            let k = c, v = c &+ 1
            c = r.after(v)
            let entry = r.tape[k]
            let start = Int(entry.start) &+ 1
            let keyBytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
            let pathHash = Self.mix(hash, Self.fnv(keyBytes))
            guard let p = path(pathHash, parent: parent, key: Int32(k), depth: depth &+ 1, keyBytes: keyBytes, parentHint: hint)
            else { continue }
            record(v, at: p, hash: pathHash, depth: depth &+ 1)
        }
    }

    /// The index of the path with `hash`, made now if new (nil when there is no room for more); a new
    /// path's hint is its key's words under its parent's (an array step's is its parent's).
    private mutating func path(_ hash: UInt64, parent: Int32, key: Int32, depth: Int, keyBytes: UnsafeBufferPointer<UInt8>?,
                               parentHint: KeyWords.Hint) -> Int? {
        let mask = pathTable.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let found = Int(pathTable[slot])
            if found == 0 { break }
            if pathHashes[found &- 1] == hash { return found &- 1 }
            slot = (slot &+ 1) & mask
        }
        guard paths.count < Self.maxPaths else { return nil }
        // An array step (`*`, `0`) says what its parent says.
        let own = keyBytes.map { KeyWords.hint($0) }
        let hint = own.map { $0.under(parentHint) } ?? parentHint
        paths.append(PathEvidence(parent: parent, key: key, depth: UInt8(depth), order: UInt16(paths.count), hint: hint,
                                  own: own ?? parentHint))
        pathHashes.append(hash)
        pathTable[slot] = Int32(paths.count)
        return paths.count &- 1
    }

    private mutating func record(_ v: Int, at p: Int, hash: UInt64, depth: Int) {
        leaves &+= 1
        let entry = r.tape[v]
        let item = Int32(items)
        // An empty string is as good as none: it counts as missing.
        if entry.kind != .null, entry.kind != .string || entry.end > entry.start &+ 1, paths[p].lastItem != item {
            paths[p].lastItem = item
            paths[p].present &+= 1
        }
        switch entry.kind {
        case .string:
            let start = Int(entry.start) &+ 1
            let bytes = UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start)
            let (shape, words) = host.withUnsafeBufferPointer { host in ValueShape.of(bytes, host: host.isEmpty ? nil : host) }
            if shape.contains(.empty) {
                paths[p].empty &+= 1
                return
            }
            paths[p].strings &+= 1
            paths[p].shapes.add(shape)
            paths[p].bytes &+= UInt32(truncatingIfNeeded: bytes.count)
            let w = UInt16(truncatingIfNeeded: Swift.min(words, 65_535))
            if w < paths[p].minWords { paths[p].minWords = w }
            if w > paths[p].maxWords { paths[p].maxWords = w }
            if seen(p, Self.valueHash(bytes)) { paths[p].distinct &+= 1 }
        case .number:
            let bytes = UnsafeBufferPointer(start: r.base + Int(entry.start), count: Int(entry.end &- entry.start))
            paths[p].numbers &+= 1
            // Digits before any fraction or exponent, and whether there is one.
            var digits = 0, whole = true
            for b in bytes {
                if b >= 0x30 && b <= 0x39 { if whole { digits &+= 1 } } else if b != 0x2D { whole = false }
            }
            if whole {
                paths[p].integers &+= 1
                if bytes.first == 0x2D { paths[p].negatives &+= 1 }
                if digits == 1, bytes.last == 0x30 { paths[p].zeros &+= 1 }
            }
            if (9...13).contains(digits), bytes.first != 0x2D { paths[p].epochs &+= 1 }
            if seen(p, Self.valueHash(bytes)) { paths[p].distinct &+= 1 }
        case .true, .false:
            paths[p].booleans &+= 1
        case .null:
            break
        case .object:
            paths[p].objects &+= 1
            if depth < Self.maxDepth { walk(object: v, parent: Int32(p), hash: hash, hint: paths[p].hint, depth: depth) }
        case .array:
            paths[p].arrays &+= 1
            guard depth < Self.maxDepth, entry.end > UInt32(v &+ 1) else { return }
            let first = v &+ 1
            switch r.kind(first) {
            case .object:
                let h = Self.mix(hash, 0x2A2A_2A2A_2A2A_2A2A)
                if let e = path(h, parent: Int32(p), key: PathEvidence.each, depth: depth &+ 1, keyBytes: nil, parentHint: paths[p].hint) {
                    record(first, at: e, hash: h, depth: depth &+ 1)
                }
            case .string:
                let h = Self.mix(hash, 0x3030_3030_3030_3030)
                if let e = path(h, parent: Int32(p), key: PathEvidence.first, depth: depth &+ 1, keyBytes: nil, parentHint: paths[p].hint) {
                    record(first, at: e, hash: h, depth: depth &+ 1)
                }
            default:
                break
            }
        }
    }

    /// Records that path `p` had a value of hash `value`; true when it was not seen there before.
    private mutating func seen(_ p: Int, _ value: UInt64) -> Bool {
        if valueCount &* 2 >= valueTable.count { grow() }
        var key = value ^ (UInt64(truncatingIfNeeded: p) &* 0x9E37_79B9_7F4A_7C15)
        if key == 0 { key = 1 }
        let mask = valueTable.count &- 1
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

    private mutating func grow() {
        let old = valueTable
        valueTable = [UInt64](repeating: 0, count: old.count &* 2)
        let mask = valueTable.count &- 1
        for key in old where key != 0 {
            var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while valueTable[slot] != 0 { slot = (slot &+ 1) & mask }
            valueTable[slot] = key
        }
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
