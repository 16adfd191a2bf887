import Foundation
import RiffleKit

/// The list of items: one row each, the title then its details and age, dimmer; the selected row
/// highlighted across the whole width. Rows are cut with "…" at the right edge, never wrapped.
public struct ListView: Sendable {
    /// The rows, in order.
    public var items: [Item]
    /// Index of the highlighted item; nil for none.
    public var selection: Int?
    /// Index of the first item drawn.
    public var offset: Int
    /// The clock for relative ages.
    public var now: Date
    /// Drawn centred when there are no items.
    public var emptyText: String
    /// A dim row after the last item, e.g. "⠋ loading page 3…" or "end of feed".
    public var footer: String?

    /// A list of `items`; `footer` is drawn after the last one.
    public init(items: [Item], selection: Int?, offset: Int, now: Date, emptyText: String = "no items",
                footer: String? = nil) {
        self.items = items
        self.selection = selection
        self.offset = offset
        self.now = now
        self.emptyText = emptyText
        self.footer = footer
    }

    /// The dim text after an item's title: its details and the age of `createdAt`.
    public static func details(of item: Item, now: Date) -> String {
        var parts = item.details
        if let createdAt = item.createdAt { parts.append(Timestamp.age(of: createdAt, now: now)) }
        return parts.joined(separator: " · ")
    }

    /// Draws the visible rows into `area`, or `emptyText` centred when there are none.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        guard !items.isEmpty else {
            Centered(text: emptyText, style: Style(.placeholder, dim: true)).render(into: &buffer, area: area)
            return
        }
        for row in 0..<area.height {
            let index = offset + row
            if index == items.count, let footer {
                buffer.write(footer, x: area.x + 1, y: area.y + row, maxWidth: area.width - 2, style: Style(.dim, dim: true))
            }
            guard index >= 0, index < items.count else { break }
            renderRow(items[index], selected: index == selection, into: &buffer,
                      area: Rect(x: area.x, y: area.y + row, width: area.width, height: 1))
        }
    }

    func renderRow(_ item: Item, selected: Bool, into buffer: inout Buffer, area: Rect) {
        let base = selected ? Style(.selection, bold: true) : .normal
        let dim = selected ? Style(.selection, dim: true) : Style(.dim, dim: true)
        buffer.fill(area, style: selected ? Style(.selection) : .normal)
        let textWidth = area.width - 2  // a margin each side
        var used = buffer.write(item.title, x: area.x + 1, y: area.y, maxWidth: textWidth, style: base)
        let details = ListView.details(of: item, now: now)
        if !details.isEmpty && used + 2 < textWidth {
            used += 2
            buffer.write(details, x: area.x + 1 + used, y: area.y, maxWidth: textWidth - used, style: dim)
        }
    }
}

/// One line of text centred in an area (vertically and horizontally).
struct Centered: Sendable {
    var text: String
    var style: Style

    func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let width = min(TextWidth.width(of: Sanitizer.clean(text)), area.width)
        buffer.write(text, x: area.x + (area.width - width) / 2, y: area.y + (area.height - 1) / 2,
                     maxWidth: area.width, style: style)
    }
}
