import Foundation
import RiffleKit

/// The links of the selected comment (`o` on a comment with several), numbered as in its text: a
/// digit opens that link at once, j/k and Enter the one selected, `y` copies it; Esc or q closes.
/// Opening goes through the same `open` effect as an item's link (the toast says where it went).
package struct LinkMenu: Sendable, Equatable {
    /// The links, `[1]` first.
    package var links: [URL]
    /// The link Enter opens and `y` copies.
    package var selection = 0

    /// A menu of `links`, the first selected.
    package init(links: [URL]) { self.links = links }

    /// `link` as `o` hands it over and `y` copies it: one inert word (`InertLink`).
    static func inert(_ link: URL) -> URL { URL(string: InertLink.encode(link.absoluteString)) ?? link }

    /// What `key` does while the menu is open.
    func press(_ key: Key, in state: inout AppState) -> [Effect] {
        if case .character(let c) = key, let number = c.wholeNumberValue, number > 0 {
            guard number <= links.count else {
                App.raise(&state, "no link [\(number)]: this comment has \(links.count)")
                return []
            }
            state.screens.pop()
            return [.open(Self.inert(links[number - 1]))]
        }
        var menu = self
        switch state.settings.keymap.command(for: key) {
        case .down: menu.selection = min(links.count - 1, selection + 1)
        case .up: menu.selection = max(0, selection - 1)
        case .first: menu.selection = 0
        case .last: menu.selection = links.count - 1
        case .open, .openLink:
            state.screens.pop()
            return [.open(Self.inert(links[selection]))]
        case .yankLink:
            state.screens.pop()
            return [.copy(Self.inert(links[selection]).absoluteString, what: "link")]
        case .back, .quit:
            state.screens.pop()
            return []
        default:
            return []
        }
        state.screens.pop()
        state.screens.push(.overlay(.links(menu)))
        return []
    }

    /// Draws the box over the middle of `area`: each link with its number, the selected one highlighted.
    func render(into buffer: inout Buffer, area: Rect) {
        let footer = "1-9 or Enter opens · y copies · Esc"
        let widest = links.map { TextWidth.width(of: $0.absoluteString) }.max() ?? 0
        let numberWidth = "[\(links.count)]".count
        let box = Box.centred(width: max(widest + numberWidth + 5, TextWidth.width(of: footer) + 4),
                              height: min(links.count, max(1, area.height - 6)) + 4, in: area)
        let inside = Box(title: "links").render(into: &buffer, area: box)
        let rows = max(0, inside.height - 2)
        guard rows > 0 else { return }
        let first = max(0, min(selection - rows + 1, links.count - rows))
        for (row, index) in (first..<min(links.count, first + rows)).enumerated() {
            let y = inside.y + row
            let selected = index == selection
            if selected { buffer.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), style: Style(.selection)) }
            let number = "[\(index + 1)]"
            let padded = String(repeating: " ", count: numberWidth - number.count) + number
            buffer.write(padded, x: inside.x + 1, y: y, maxWidth: numberWidth, style: selected ? Style(.selection) : Style(.dim, dim: true))
            buffer.write(links[index].absoluteString, x: inside.x + numberWidth + 2, y: y, maxWidth: inside.width - numberWidth - 3,
                         style: selected ? Style(.selection, bold: true) : Style())
        }
        buffer.write(footer, x: inside.x + 1, y: inside.maxY - 1, maxWidth: inside.width - 2, style: Style(.dim, dim: true))
    }
}
