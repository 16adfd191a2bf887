import Foundation
import RiffleKit

/// An item's discussion as blocks for a `BlockPager`: block 0 is the story (its title, facts and
/// own text), block `i + 1` is comment `i`. A comment's block is its header (indent guides, author,
/// labels), its text wrapped at the reading width under the guides, and a blank line. The replies of
/// a folded comment are skipped, so block numbers need not follow one another.
///
/// Nothing here is laid out until a screen asks for a block: a thread of a million comments costs
/// the comments on screen.
struct CommentDocument: BlockDocument, Sendable {
    let thread: CommentThread
    let folded: Set<Int>
    let story: StoryParts
    /// The story's author, whose comments are labelled OP.
    let storyAuthor: String?
    /// The most columns a comment's text takes (config `text_width`).
    let textWidth: Int
    /// Comments (indices) new since the last visit, marked in their header.
    let fresh: Set<Int>
    /// How many comments there are ("more" stubs aside), counted once when the thread came.
    let commentCount: Int
    /// "More replies" stubs (indices) whose replies are loading: drawn "loading N more replies…".
    var expanding: Set<Int> = []

    /// What a "more replies" stub's line starts with; a spinner takes its place while it loads.
    static let stubMark = "… "

    /// The most indent guides drawn: deeper comments line up with the deepest drawn.
    static let maxGuides = 12

    var count: Int { thread.comments.count }

    var firstBlock: Int? { 0 }

    var lastBlock: Int? {
        guard count > 0 else { return 0 }
        // The last comment shown: the last one, lifted to the outermost folded comment holding it.
        return shownOwner(of: count - 1) + 1
    }

    func block(after block: Int) -> Int? {
        if block == 0 { return count > 0 ? 1 : nil }
        let index = block - 1
        guard thread.comments.indices.contains(index) else { return nil }
        let next = folded.contains(index) ? index + thread.comments[index].descendants + 1 : index + 1
        return next < count ? next + 1 : nil
    }

    func block(before block: Int) -> Int? {
        guard block > 0 else { return nil }
        let index = block - 1
        guard index > 0 else { return 0 }
        return shownOwner(of: index - 1) + 1
    }

    /// The comment shown for `index`: itself, or the outermost folded comment whose replies hold it.
    func shownOwner(of index: Int) -> Int {
        var owner = index
        for fold in folded where fold < owner && index <= fold + thread.comments[fold].descendants { owner = fold }
        return owner
    }

    /// The columns `depth`'s guides take.
    func indent(_ depth: Int) -> Int { min(depth, Self.maxGuides) * 2 }

    func lines(of block: Int, width: Int) -> [StyledLine] {
        let width = max(8, width)
        guard block > 0 else { return storyLines(width: width) }
        let index = block - 1
        guard thread.comments.indices.contains(index) else { return [StyledLine("")] }
        let comment = thread.comments[index]
        let guides = Self.guides(depth: comment.depth)
        let indent = indent(comment.depth)
        var lines: [StyledLine] = []
        if let more = comment.more {
            let replies = more > 0 ? "\(more) more \(more == 1 ? "reply" : "replies")" : "more replies"
            let text = expanding.contains(index) ? "loading \(replies)…"
                : comment.stub == nil ? replies + " (C opens the page)"
                : more > 0 ? replies + " (Enter loads them)" : "continue this thread (Enter)"
            lines.append(StyledLine(guides + [.init(Self.stubMark + text, Style(.dim, dim: true))]))
        } else {
            var header = guides + [.init(comment.author ?? "[deleted]", Style(.accent, bold: true))]
            if let storyAuthor, comment.author == storyAuthor { header.append(.init(" OP", Style(.header, bold: true))) }
            if comment.isModerator { header.append(.init(" mod", Style(.error, bold: true))) }
            if fresh.contains(index) { header.append(.init(" new", Style(.accent, bold: true))) }
            if folded.contains(index) {
                let hidden = comment.descendants
                header.append(.init(" · [+\(hidden)] \(hidden == 1 ? "reply" : "replies") folded", Style(.accent)))
            }
            lines.append(StyledLine(header))
            let columns = max(4, min(textWidth, width - indent))
            let wrapped = TextWrap.wrap(comment.text, width: columns, maxLines: DetailView.maxBlockLines, keepingURLs: true)
            let looked = DetailView.maxBlockLines.multipliedReportingOverflow(by: columns + 1)
            let styled = MarkedLines.styled(wrapped.lines, of: comment.text, marks: comment.marks,
                                            looked: looked.overflow ? .max : looked.partialValue)
            for line in styled { lines.append(StyledLine(guides + line)) }
            if wrapped.isCut {
                lines.append(StyledLine(guides + [.init("… (cut here: the comment is \(DetailView.sizeText(comment.text.utf8.count)))",
                                                        Style(.dim, dim: true))]))
            }
        }
        lines.append(StyledLine(guides))
        return lines
    }

    /// The story above the comments: its title, its facts, its own text (an Ask HN's, a self post's).
    func storyLines(width: Int) -> [StyledLine] {
        let columns = max(4, min(textWidth, width))
        var lines = TextWrap.wrap(story.title, width: columns, maxLines: 20).lines.map { StyledLine($0, Style(.normal, bold: true)) }
        let count = commentCount
        var facts = story.facts.filter { !$0.hasSuffix("comments") && !$0.hasSuffix("comment") }
        facts.append(count == 1 ? "1 comment" : "\(count) comments")
        if !fresh.isEmpty { facts.append(fresh.count == 1 ? "1 new comment" : "\(fresh.count) new comments") }
        lines += TextWrap.wrap(facts.joined(separator: " · "), width: columns, maxLines: 4).lines.map { StyledLine($0, Style(.dim, dim: true)) }
        if let text = story.text {
            for paragraph in text.split(separator: "\n", omittingEmptySubsequences: true) {
                lines.append(StyledLine(""))
                let wrapped = TextWrap.wrap(String(paragraph), width: columns, maxLines: DetailView.maxBlockLines, keepingURLs: true)
                lines += MarkedLines.styled(wrapped.lines, of: String(paragraph), marks: []).map(StyledLine.init)
            }
        }
        lines.append(StyledLine(""))
        return lines
    }

    /// A comment's guides: one bar a level, coloured by its depth (plain where there are no colours).
    static func guides(depth: Int) -> [StyledLine.Span] {
        (0..<min(depth, maxGuides)).map { level in .init("│ ", Style(Style.Role.depth(level))) }
    }
}

/// The thread as `CommentsScreen` draws it: the lines from the pager, the selected comment's header
/// highlighted, ages drawn (not laid out: they change with the clock).
package struct CommentTreeView: Sendable {
    /// Each line on screen: its block and its line in the block.
    var shown: [(block: Int, line: Int, text: StyledLine)]
    var document: CommentDocument
    var selection: Int
    var now: Date
    /// The spinner's frame, for the stubs whose replies are loading.
    var spinnerFrame = 0

    func render(into buffer: inout Buffer, area: Rect) {
        for (row, entry) in shown.enumerated() where row < area.height {
            let y = area.y + row
            var line = entry.text
            let index = entry.block - 1
            if entry.line == 0, document.expanding.contains(index),
               let at = line.spans.firstIndex(where: { $0.text.hasPrefix(CommentDocument.stubMark) }) {
                // The spinner turns where the stub's "…" was (drawn, not laid out: it changes every tick).
                let span = line.spans[at]
                line.spans[at] = .init("\(Spinner(frame: spinnerFrame).symbol) " + span.text.dropFirst(CommentDocument.stubMark.count), span.style)
            }
            if entry.line == 0, document.thread.comments.indices.contains(index), let date = document.thread.comments[index].createdAt {
                // After the author and its labels, before what is folded.
                let at = line.spans.firstIndex { $0.text.hasPrefix(" · [") } ?? line.spans.count
                line.spans.insert(.init(" · " + Timestamp.age(of: date, now: now), Style(.dim, dim: true)), at: at)
            }
            if entry.line == 0, index == selection {
                buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Style(.selection))
                line = StyledLine(line.spans.map { .init($0.text, Style(.selection, bold: $0.style.bold)) })
            }
            line.render(into: &buffer, x: area.x + 1, y: y, maxX: area.maxX - 1)
        }
    }
}
