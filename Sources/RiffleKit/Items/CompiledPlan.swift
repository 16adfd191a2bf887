/// A plan's paths as bytes to compare with a page's keys where they lie: configured paths from their
/// text, inferred ones from the keys where the evidence saw them. Built once per page.
struct CompiledPlan {
    /// One component: `length` bytes of `pool` at `offset` as an object key; on an array, `index` picks an
    /// element (-1: not a whole number) and `each` takes them all.
    struct Step {
        var offset: Int32
        var length: Int32
        var index: Int32
        var each: Bool
        /// The key's first eight bytes as a little-endian word (zero-padded): most keys compare in one go.
        var word: UInt64
    }

    /// A path: its steps, whether it was inferred, and the unit a count under it is shown with.
    struct Path {
        var steps: Range<Int>
        var inferred: Bool
        var unit: Int8
        /// Whether a step takes every element (`*`): its texts are joined.
        var joins: Bool
    }

    private(set) var pool: [UInt8] = []
    private(set) var steps: [Step] = []
    private(set) var paths: [Path] = []
    /// Per part, in `FieldPlan.Part` order, the paths tried in turn.
    var parts = [[Int]](repeating: [], count: FieldPlan.Part.allCases.count)
    /// Configured subtitle paths, which replace the author and counts.
    var subtitle: [Int] = []
    /// Whether each part was configured (only its path is read, except a title, which falls back).
    var configured = [Bool](repeating: false, count: FieldPlan.Part.allCases.count)

    /// Adds a configured path; returns its number.
    mutating func add(_ path: JSONPath, part: FieldPlan.Part?) -> Int {
        let first = steps.count
        var unit: Int8 = -1
        for component in path.components {
            let each = component == JSONPath.each
            appendStep(Array(component.utf8), index: JSONPath.index(component).map(Int32.init) ?? -1, each: each)
        }
        if let part, part == .score || part == .comments, let last = path.components.last {
            var key = last
            let hint = key.withUTF8 { KeyWords.hint($0) }
            unit = part == .score ? hint.scoreUnit : hint.commentUnit
        }
        paths.append(Path(steps: first..<steps.count, inferred: false, unit: unit, joins: path.components.contains(JSONPath.each)))
        return paths.count - 1
    }

    /// Adds the path of evidence `index`, its keys read where the evidence saw them; returns its number.
    mutating func add(evidence index: Int, _ evidence: [PathEvidence], part: FieldPlan.Part, _ r: TapeReader) -> Int {
        var chain: [Int32] = []
        var p = Int32(index)
        while p >= 0 {
            chain.append(evidence[Int(p)].key)
            p = evidence[Int(p)].parent
        }
        let first = steps.count
        var joins = false
        for key in chain.reversed() {
            switch key {
            case PathEvidence.each:
                appendStep([], index: -1, each: true)
                joins = true
            case PathEvidence.first:
                appendStep(Array("0".utf8), index: 0, each: false)
            default:
                let k = Int(key)
                let entry = r.tape[k]
                let start = Int(entry.start) &+ 1
                let bytes = entry.flags == 0 ? Array(UnsafeBufferPointer(start: r.base + start, count: Int(entry.end) &- start))
                    : Array(r.string(k).utf8)
                appendStep(bytes, index: -1, each: false)
            }
        }
        let e = evidence[index]
        let unit = part == .score ? e.hint.scoreUnit : part == .comments ? e.hint.commentUnit : -1
        paths.append(Path(steps: first..<steps.count, inferred: true, unit: unit, joins: joins))
        return paths.count - 1
    }

    private mutating func appendStep(_ bytes: [UInt8], index: Int32, each: Bool) {
        let word = bytes.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        steps.append(Step(offset: Int32(pool.count), length: Int32(bytes.count), index: index, each: each, word: word))
        pool += bytes
    }

    /// The plan through raw pointers, so reading an item costs no retain or release (valid only inside `body`).
    func withView<R>(_ body: (View) -> R) -> R {
        // Each part's paths, one after another: part n's are `order[starts[n] ..< starts[n + 1]]`.
        var starts: [Int32] = [0]
        var order: [Int32] = []
        for list in parts {
            order += list.map(Int32.init)
            starts.append(Int32(order.count))
        }
        order += subtitle.map(Int32.init)
        starts.append(Int32(order.count))
        // The distinct first keys of all paths, found by one pass over an item's members
        // (`ItemReader.fill`) through a small open-addressing table.
        var firstKeys: [Step] = []
        var firstKeyOfPath: [Int32] = []
        var table = [Int32](repeating: -1, count: View.tableSize)
        for path in paths {
            guard let s = path.steps.first else {
                firstKeyOfPath.append(-1)
                continue
            }
            let step = steps[s]
            let bytes = pool[Int(step.offset)..<Int(step.offset + step.length)]
            if let found = firstKeys.firstIndex(where: { $0.word == step.word && $0.length == step.length
                && pool[Int($0.offset)..<Int($0.offset + $0.length)] == bytes }) {
                firstKeyOfPath.append(Int32(found))
                continue
            }
            // At most `tableSize / 2` keys: a path past that is read without the table.
            guard firstKeys.count < View.tableSize / 2 else {
                firstKeyOfPath.append(-2)
                continue
            }
            var slot = View.slot(word: step.word, length: Int(step.length))
            while table[slot] >= 0 { slot = (slot &+ 1) & (View.tableSize &- 1) }
            table[slot] = Int32(firstKeys.count)
            firstKeyOfPath.append(Int32(firstKeys.count))
            firstKeys.append(step)
        }
        let bytes = pool.isEmpty ? [0] : pool
        return bytes.withUnsafeBufferPointer { pool in
            steps.withUnsafeBufferPointer { steps in
                paths.withUnsafeBufferPointer { paths in
                    starts.withUnsafeBufferPointer { starts in
                        order.withUnsafeBufferPointer { order in
                            firstKeys.withUnsafeBufferPointer { firstKeys in
                                firstKeyOfPath.withUnsafeBufferPointer { firstKeyOfPath in
                                    table.withUnsafeBufferPointer { table in
                                        body(View(pool: pool.baseAddress!, steps: steps, paths: paths, starts: starts.baseAddress!,
                                                  order: order.baseAddress ?? starts.baseAddress!, firstKeys: firstKeys,
                                                  firstKeyOfPath: firstKeyOfPath.baseAddress ?? starts.baseAddress!,
                                                  table: table.baseAddress!))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Raw views of the pool, the steps, the paths, each part's list of paths and the first keys.
    struct View {
        let pool: UnsafePointer<UInt8>
        let steps: UnsafeBufferPointer<Step>
        let paths: UnsafeBufferPointer<Path>
        fileprivate let starts: UnsafePointer<Int32>
        fileprivate let order: UnsafePointer<Int32>
        /// The distinct first steps of the paths: an item's members are matched against these once.
        let firstKeys: UnsafeBufferPointer<Step>
        /// Per path, the index of its first key (-1: the path is empty, -2: not in the table).
        let firstKeyOfPath: UnsafePointer<Int32>
        /// Open addressing from a key's `slot` to its index in `firstKeys` (-1: empty).
        let table: UnsafePointer<Int32>

        static let tableSize = 128

        /// Where a key of `length` bytes whose first eight are `word` starts its probe in `table`.
        @inline(__always) static func slot(word: UInt64, length: Int) -> Int {
            let h = (word ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: h >> 57) & (tableSize &- 1)
        }

        /// The paths of `part` in the order they are tried.
        @inline(__always) func paths(of part: FieldPlan.Part) -> UnsafeBufferPointer<Int32> {
            list(part.rawValue)
        }

        /// The configured subtitle paths.
        var subtitle: UnsafeBufferPointer<Int32> { list(FieldPlan.Part.allCases.count) }

        @inline(__always) private func list(_ n: Int) -> UnsafeBufferPointer<Int32> {
            UnsafeBufferPointer(start: order + Int(starts[n]), count: Int(starts[n &+ 1] &- starts[n]))
        }
    }
}
