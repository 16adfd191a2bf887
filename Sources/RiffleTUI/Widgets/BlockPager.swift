/// A long text made of blocks (an item's parts, a thread's comments) that a screen shows a window
/// of. Blocks are numbered in reading order (not necessarily every number: a folded thread skips its
/// replies), and each is laid out on its own, so a screen lays out only the blocks it shows.
protocol BlockDocument {
    /// The first block; nil when there is none.
    var firstBlock: Int? { get }
    /// The last block; nil when there is none.
    var lastBlock: Int? { get }
    /// The block after `block` in reading order.
    func block(after block: Int) -> Int?
    /// The block before `block` in reading order.
    func block(before block: Int) -> Int?
    /// The lines of `block` at `width` columns: one at least, and a bounded number however long its text.
    func lines(of block: Int, width: Int) -> [StyledLine]
}

/// Where the first drawn line is: line `line` of block `block`.
package struct PagePosition: Sendable, Equatable, Comparable {
    package var block: Int
    package var line: Int

    package init(block: Int, line: Int) {
        self.block = block
        self.line = line
    }

    package static func < (a: PagePosition, b: PagePosition) -> Bool { (a.block, a.line) < (b.block, b.line) }
}

/// The lines made of a `BlockDocument`'s blocks for one width and one version of the document, kept
/// while they are near what is shown: moving and every frame reuse them, and a block far from the
/// window is dropped, so memory and work follow the screen, not the document.
///
/// Not part of a state's value (always equal), like `Cached`. `rowsMade` counts every line laid
/// out, so tests can bound the work by rows rather than by time.
package struct BlockLines: Sendable, Equatable {
    /// The width and the version of the document the lines are for.
    package struct Key: Sendable, Equatable {
        package var width: Int
        package var revision: Int
        /// Anything else the lines are made from (the item view's age, which the clock changes).
        package var variant = ""
    }

    private(set) var key: Key?
    private var lines: [Int: [StyledLine]] = [:]
    /// Lines laid out since the screen was made (a test's measure of the work done).
    package private(set) var rowsMade = 0

    package init() {}

    /// The kept lines of `block`, when they are for `key`.
    func kept(_ block: Int, for key: Key) -> [StyledLine]? { self.key == key ? lines[block] : nil }

    /// Whether the blocks that fill `rows` rows from `top` are all kept for `key` (nothing is left
    /// to lay out for that screen).
    func fills(_ rows: Int, from top: PagePosition, in document: some BlockDocument, for key: Key) -> Bool {
        var position: Int? = top.block
        var filled = -top.line
        while let block = position, filled < rows {
            guard let lines = kept(block, for: key) else { return false }
            filled += lines.count
            position = document.block(after: block)
        }
        return true
    }

    /// The lines of `block`: the kept ones, else made and kept.
    mutating func lines(of block: Int, in document: some BlockDocument, for key: Key) -> [StyledLine] {
        if self.key != key {
            self.key = key
            lines = [:]
        }
        if let kept = lines[block] { return kept }
        let made = document.lines(of: block, width: key.width)
        rowsMade += made.count
        lines[block] = made
        return made
    }

    /// Drops the kept blocks farthest from `block` when more than `limit` are kept.
    mutating func trim(around block: Int, limit: Int) {
        guard lines.count > limit else { return }
        let far = lines.keys.sorted { abs($0 - block) > abs($1 - block) }.prefix(lines.count - limit)
        for key in far { lines[key] = nil }
    }

    package static func == (lhs: BlockLines, rhs: BlockLines) -> Bool { true }
}

/// Moves a window of `rows` lines over a `BlockDocument`, laying out only the blocks it passes.
/// Every move costs the blocks between where it starts and where it ends plus one screen, whatever
/// the document's length: `g` and `G` jump without laying out what is between.
struct BlockPager<Document: BlockDocument> {
    let document: Document
    let key: BlockLines.Key
    let rows: Int
    var store: BlockLines

    init(_ document: Document, key: BlockLines.Key, rows: Int, store: BlockLines) {
        self.document = document
        self.key = key
        self.rows = max(1, rows)
        self.store = store
    }

    mutating func lines(of block: Int) -> [StyledLine] { store.lines(of: block, in: document, for: key) }

    /// The top of the document.
    var start: PagePosition? { document.firstBlock.map { PagePosition(block: $0, line: 0) } }

    /// `position` moved `delta` lines (either way), stopping at the top and where the last screen begins.
    mutating func moved(_ position: PagePosition, by delta: Int) -> PagePosition {
        guard let start else { return PagePosition(block: 0, line: 0) }
        var position = max(position, start)
        if delta < 0 {
            var left = -delta
            while left > 0 {
                if position.line >= left {
                    position.line -= left
                    break
                }
                left -= position.line + 1
                guard let previous = document.block(before: position.block) else { return start }
                position = PagePosition(block: previous, line: lines(of: previous).count - 1)
            }
            return position
        }
        var left = delta
        while left > 0 {
            let count = lines(of: position.block).count
            if position.line + left < count {
                position.line += left
                break
            }
            left -= count - position.line
            guard let next = document.block(after: position.block) else {
                position.line = count - 1
                break
            }
            position = PagePosition(block: next, line: 0)
        }
        return min(position, lastTop)
    }

    /// The first line of the last screen: the end, `rows` lines back (the top when the document is shorter).
    var lastTop: PagePosition {
        mutating get {
            guard let last = document.lastBlock, let start else { return PagePosition(block: 0, line: 0) }
            var position = PagePosition(block: last, line: lines(of: last).count - 1)
            var left = rows - 1
            while left > 0 {
                if position.line >= left {
                    position.line -= left
                    return position
                }
                left -= position.line + 1
                guard let previous = document.block(before: position.block) else { return start }
                position = PagePosition(block: previous, line: lines(of: previous).count - 1)
            }
            return position
        }
    }

    /// The top that shows `block`: unchanged when the block's first line is in view; else the block's
    /// first line at the top when it starts above, or its end at the bottom (its start when it is
    /// taller than the screen) when it starts below.
    mutating func revealing(_ block: Int, from top: PagePosition) -> PagePosition {
        if block < top.block || (block == top.block && top.line > 0) { return PagePosition(block: block, line: 0) }
        // Is its first line within the screen, and its last?
        var seen = 0
        var current = top
        while seen < rows {
            if current.block == block {
                let height = lines(of: block).count
                if seen + height <= rows || seen == 0 { return top }
                break
            }
            seen += lines(of: current.block).count - current.line
            guard let next = document.block(after: current.block) else { return top }
            current = PagePosition(block: next, line: 0)
            if current.block > block { return top }
        }
        let height = lines(of: block).count
        if height >= rows { return PagePosition(block: block, line: 0) }
        return moved(PagePosition(block: block, line: 0), by: -(rows - height))
    }

    /// The lines of one screen from `top`: each with its block and its line in the block.
    mutating func screen(from top: PagePosition) -> [(block: Int, line: Int, text: StyledLine)] {
        var shown: [(Int, Int, StyledLine)] = []
        var position: PagePosition? = top
        while let at = position, shown.count < rows {
            let lines = lines(of: at.block)
            for index in at.line..<max(at.line, lines.count) where shown.count < rows { shown.append((at.block, index, lines[index])) }
            position = document.block(after: at.block).map { PagePosition(block: $0, line: 0) }
        }
        return shown
    }

    /// The blocks whose first line is on the screen from `top`, in order.
    mutating func blocksStarting(onScreenFrom top: PagePosition) -> [Int] {
        screen(from: top).filter { $0.line == 0 }.map(\.block)
    }
}
