import Foundation
import RiffleKit

/// An item's comments as an indented tree: each comment a line of author and age, then its text
/// wrapped under it; replies indented two columns deeper (up to a third of the width); a folded
/// comment says how many replies it hides. The selected comment's first line is highlighted.
package struct CommentTreeView: Sendable {
    /// The lines of a thread at one width, and where each shown comment's lines start and end. Ages
    /// are not in the lines (they change with the clock, the layout does not): `render` puts each
    /// after its author.
    package struct Layout: Sendable {
        package var lines: [StyledLine] = []
        /// Index in `thread.comments` → its first line, and its last (the blank after it excluded).
        package var starts: [Int: Int] = [:]
        package var ends: [Int: Int] = [:]
        /// The comments shown, in order (indices into `thread.comments`): all but the replies of folded ones.
        package var shown: [Int] = []
        /// A header line → when its comment was written.
        package var dates: [Int: Date] = [:]
    }

    package var layout: Layout
    package var selection: Int
    package var scroll: Int
    /// The clock the ages are told by.
    package var now: Date

    package init(layout: Layout, selection: Int, scroll: Int, now: Date) {
        self.layout = layout
        self.selection = selection
        self.scroll = scroll
        self.now = now
    }

    /// The lines of `thread` wrapped to `width` columns, the replies of `folded` comments left out.
    package static func layout(_ thread: CommentThread, folded: Set<Int>, width: Int) -> Layout {
        var layout = Layout()
        let comments = thread.comments
        let width = max(8, width)
        let dim = Style(.dim, dim: true)
        var index = 0
        while index < comments.count {
            layout.shown.append(index)
            let comment = comments[index]
            let indent = min(comment.depth * 2, width / 3)
            let pad = String(repeating: " ", count: indent)
            layout.starts[index] = layout.lines.count
            if let more = comment.more {
                let text = (more > 0 ? "\(more) more \(more == 1 ? "reply" : "replies")" : "more replies") + " (C opens the page)"
                layout.lines.append(StyledLine([.init(pad), .init("… " + text, dim)]))
            } else {
                var header: [StyledLine.Span] = [.init(pad), .init(comment.author ?? "[deleted]", Style(.accent, bold: true))]
                if let date = comment.createdAt { layout.dates[layout.lines.count] = date }
                if folded.contains(index) {
                    let hidden = comment.descendants
                    header.append(.init(" · [+\(hidden)] \(hidden == 1 ? "reply" : "replies") folded", Style(.accent)))
                }
                layout.lines.append(StyledLine(header))
                for line in TextWrap.wrap(comment.text, width: max(4, width - indent)) {
                    layout.lines.append(StyledLine([.init(pad), .init(line)]))
                }
            }
            layout.ends[index] = layout.lines.count - 1
            layout.lines.append(StyledLine(""))
            index += folded.contains(index) ? comment.descendants + 1 : 1
        }
        return layout
    }

    /// Draws the lines from `scroll` into `area` with a one-column margin; the selected comment's
    /// first line across the whole width.
    package func render(into buffer: inout Buffer, area: Rect) {
        let selectedLine = layout.starts[selection]
        for row in 0..<area.height {
            let index = scroll + row
            guard index >= 0, index < layout.lines.count else { break }
            let y = area.y + row
            var line = layout.lines[index]
            if let date = layout.dates[index] {
                line.spans.insert(.init(" · " + Timestamp.age(of: date, now: now), Style(.dim, dim: true)), at: 2)
            }
            if index == selectedLine {
                buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Style(.selection))
                line = StyledLine(line.spans.map { .init($0.text, Style(.selection, bold: $0.style.bold)) })
            }
            line.render(into: &buffer, x: area.x + 1, y: y, maxX: area.maxX - 1)
        }
    }
}
