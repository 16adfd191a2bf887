import Foundation
import RiffleKit

/// An item's comments as an indented tree: each comment a line of author and age, then its text
/// wrapped under it; replies indented two columns deeper (up to a third of the width); a folded
/// comment says how many replies it hides. The selected comment's first line is highlighted.
public struct CommentTreeView: Sendable {
    /// The lines of a thread at one width, and where each shown comment's lines start and end.
    public struct Layout: Sendable {
        public var lines: [StyledLine] = []
        /// Index in `thread.comments` → its first line, and its last (the blank after it excluded).
        public var starts: [Int: Int] = [:]
        public var ends: [Int: Int] = [:]
    }

    public var layout: Layout
    public var selection: Int
    public var scroll: Int

    public init(layout: Layout, selection: Int, scroll: Int) {
        self.layout = layout
        self.selection = selection
        self.scroll = scroll
    }

    /// The lines of `comments`' thread wrapped to `width` columns, ages as of `now`.
    public static func layout(_ comments: CommentsState, width: Int, now: Date = .distantPast) -> Layout {
        var layout = Layout()
        guard let thread = comments.thread else { return layout }
        let width = max(8, width)
        let dim = Style(.dim, dim: true)
        for index in comments.shown {
            let comment = thread.comments[index]
            let indent = min(comment.depth * 2, width / 3)
            let pad = String(repeating: " ", count: indent)
            layout.starts[index] = layout.lines.count
            if let more = comment.more {
                let text = (more > 0 ? "\(more) more \(more == 1 ? "reply" : "replies")" : "more replies") + " (C opens the page)"
                layout.lines.append(StyledLine([.init(pad), .init("… " + text, dim)]))
            } else {
                var header: [StyledLine.Span] = [.init(pad), .init(comment.author ?? "[deleted]", Style(.accent, bold: true))]
                if let date = comment.createdAt, now != .distantPast { header.append(.init(" · " + Timestamp.age(of: date, now: now), dim)) }
                if comments.folded.contains(index) {
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
        }
        return layout
    }

    /// Draws the lines from `scroll` into `area` with a one-column margin; the selected comment's
    /// first line across the whole width.
    public func render(into buffer: inout Buffer, area: Rect) {
        let selectedLine = layout.starts[selection]
        for row in 0..<area.height {
            let index = scroll + row
            guard index >= 0, index < layout.lines.count else { break }
            let y = area.y + row
            var line = layout.lines[index]
            if index == selectedLine {
                buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Style(.selection))
                line = StyledLine(line.spans.map { .init($0.text, Style(.selection, bold: $0.style.bold)) })
            }
            line.render(into: &buffer, x: area.x + 1, y: y, maxX: area.maxX - 1)
        }
    }
}
