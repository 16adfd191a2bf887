import Foundation
import RiffleKit

/// The list of items: one row each, the title then its details and age, dimmer; the selected row
/// highlighted across the whole width; a thin "page N" line where pages meet. Rows are cut with "…"
/// at the right edge, never wrapped.
package struct ListView: Sendable {
    /// One line of the list.
    package enum Line: Sendable, Equatable {
        /// The item `items[row]`.
        case item(row: Int)
        /// Where page `number` begins.
        case pageBoundary(Int)

        /// Whether this is a "page N" line.
        package var isPageBoundary: Bool {
            if case .pageBoundary = self { true } else { false }
        }
    }

    /// The rows, in order.
    package var items: [Item]
    /// What is drawn, top to bottom; one `.item` line per item when nil.
    package var lines: [Line]?
    /// Index of the highlighted item; nil for none.
    package var selection: Int?
    /// Index (in `lines`) of the first line drawn.
    package var offset: Int
    /// The clock for relative ages.
    package var now: Date
    /// Drawn centred when there are no items; "\n" starts a new line, and long lines wrap.
    package var emptyText: String
    /// A row after the last item, e.g. "⠋ loading page 3…" or "end of feed".
    package var footer: String?
    /// How the footer is drawn; dim unless set.
    package var footerStyle = Style(.dim, dim: true)
    /// What the reader has done with each item (parallel to `items`); empty when not known, and
    /// every row is drawn alike.
    package var marks: [Mark] = []
    /// Whether a seen item carries a glyph in the left margin (for screens without colours, where
    /// dim may not show).
    package var glyphs = false

    /// An item's place in the reader's day.
    package struct Mark: Sendable, Equatable {
        /// Seen: drawn dimmer.
        package var seen: Bool
        /// Came with a reload or a watch: "new" after the title.
        package var arrived: Bool
        /// Saved for later (`f`): "saved" after the title.
        package var saved: Bool
        /// Hidden by a rule, listed because `H` shows them: drawn dimmer, "hidden" after the title.
        package var hidden: Bool

        package init(seen: Bool, arrived: Bool, saved: Bool = false, hidden: Bool = false) {
            self.seen = seen
            self.arrived = arrived
            self.saved = saved
            self.hidden = hidden
        }
    }

    /// The glyph a seen item carries when `glyphs` is on.
    package static let seenGlyph = "·"

    /// A list of `items` drawn as `lines` (one per item when nil); `footer` is drawn after the last one.
    package init(items: [Item], lines: [Line]? = nil, selection: Int?, offset: Int, now: Date, emptyText: String = "no items",
                footer: String? = nil) {
        self.items = items
        self.lines = lines
        self.selection = selection
        self.offset = offset
        self.now = now
        self.emptyText = emptyText
        self.footer = footer
    }

    /// The dim text after an item's title: its details (counts already in the singular or plural
    /// their number needs, "1 point", as RiffleKit builds them) and the age of `createdAt`.
    package static func details(of item: Item, now: Date) -> String {
        var parts = item.details
        // The comment count that RiffleKit left out beside an author and a score (two facts beside an
        // age): HN and Lobsters readers scan for it.
        if let comments = item.comments, parts.count == (item.author == nil ? 0 : 1) + (item.score == nil ? 0 : 1) {
            parts.append(comments == 1 ? "1 comment" : "\(comments) comments")
        }
        if let createdAt = item.createdAt { parts.append(Timestamp.age(of: createdAt, now: now)) }
        return parts.joined(separator: " · ")
    }

    /// Draws the visible lines into `area`, or `emptyText` centred when there are no items.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        guard !items.isEmpty else {
            Centered(text: emptyText, style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: area)
            return
        }
        let count = lines?.count ?? items.count
        for row in 0..<area.height {
            let index = offset + row
            let line = Rect(x: area.x, y: area.y + row, width: area.width, height: 1)
            if index == count, let footer {
                buffer.write(footer, x: area.x + 1, y: line.y, maxWidth: area.width - 2, style: footerStyle)
            }
            guard index >= 0, index < count else { break }
            switch lines?[index] ?? .item(row: index) {
            case .item(let item):
                renderRow(items[item], selected: item == selection, mark: marks.indices.contains(item) ? marks[item] : nil,
                          into: &buffer, area: line)
            case .pageBoundary(let number):
                renderBoundary(page: number, into: &buffer, area: line)
            }
        }
    }

    /// "─ page 3 ────": thin, dim, across the row.
    func renderBoundary(page number: Int, into buffer: inout Buffer, area: Rect) {
        let style = Style(.dim, dim: true)
        let label = "─ page \(number) "
        let used = buffer.write(label, x: area.x + 1, y: area.y, maxWidth: area.width - 2, style: style)
        for x in area.x + 1 + used..<max(area.x + 1 + used, area.maxX - 1) { buffer.set(x, area.y, Cell("─", style: style)) }
    }

    func renderRow(_ item: Item, selected: Bool, mark: Mark? = nil, into buffer: inout Buffer, area: Rect) {
        let hidden = mark?.hidden == true
        let seen = mark?.seen == true || hidden
        let base = selected ? Style(.selection, bold: true, dim: seen) : seen ? Style(.dim, dim: true) : .normal
        let dim = selected ? Style(.selection, dim: true) : Style(.dim, dim: true)
        buffer.fill(area, style: selected ? Style(.selection) : .normal)
        if seen, glyphs { buffer.write(ListView.seenGlyph, x: area.x, y: area.y, maxWidth: 1, style: selected ? Style(.selection) : .normal) }
        let textWidth = area.width - 2  // a margin each side
        var used = buffer.write(item.title, x: area.x + 1, y: area.y, maxWidth: textWidth, style: base)
        // The link's site, as HN and Lobsters show it: "(example.com)".
        if let site = StoryParts.site(of: item.url), used + 4 < textWidth {
            used += 1
            used += buffer.write("(\(site))", x: area.x + 1 + used, y: area.y, maxWidth: textWidth - used, style: dim)
        }
        if hidden, used + 8 < textWidth {
            used += 1
            used += buffer.write("hidden", x: area.x + 1 + used, y: area.y, style: selected ? Style(.selection, dim: true) : Style(.placeholder, dim: true))
        }
        if mark?.arrived == true, used + 5 < textWidth {
            used += 1
            used += buffer.write("new", x: area.x + 1 + used, y: area.y, style: Style(.accent, bold: true))
        }
        if mark?.saved == true, used + 7 < textWidth {
            used += 1
            used += buffer.write("saved", x: area.x + 1 + used, y: area.y, style: Style(.accent))
        }
        let details = ListView.details(of: item, now: now)
        if !details.isEmpty && used + 2 < textWidth {
            used += 2
            buffer.write(details, x: area.x + 1 + used, y: area.y, maxWidth: textWidth - used, style: dim)
        }
    }
}

/// Lines of text centred in an area (vertically and horizontally); "\n" starts a line, and lines
/// longer than the area less `margin` columns each side wrap.
struct Centered: Sendable {
    var text: String
    var style: Style
    var margin = 0

    func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { TextWrap.wrap(String($0), width: max(1, area.width - 2 * margin)) }
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (row, line) in lines.prefix(area.height).enumerated() {
            let width = min(TextWidth.width(of: line), area.width)
            buffer.write(line, x: area.x + (area.width - width) / 2, y: top + row, maxWidth: area.width, style: style)
        }
    }
}
