import Foundation
import RiffleKit

/// One item, whole (Enter): every field as "key: value", or its raw JSON (`v`), scrolled by line.
/// Esc or q returns to the screen it was opened from, as it was.
///
/// Its lines are laid out once for a width and kept (`Cached`) until the width or the view (fields,
/// raw JSON) changes: a key that scrolls, and every frame, reuse them.
package struct ItemScreen: Sendable, Equatable {
    /// The item shown (a copy, so a reload of its page does not change it under the reader).
    package let item: Item
    /// Whether it is one of the open feed's items (not a search result from another feed).
    package let isInOpenFeed: Bool
    /// The first line drawn.
    package var scroll = 0
    /// Whether the item is shown as pretty-printed JSON rather than as fields.
    package var showsRawJSON = false
    private var layout = Cached<LayoutKey, [StyledLine]>()

    private struct LayoutKey: Sendable, Equatable {
        var width: Int
        var raw: Bool
    }

    /// Shows `item` from its first line, as fields.
    package init(item: Item, isInOpenFeed: Bool = true) {
        self.item = item
        self.isInOpenFeed = isInOpenFeed
    }

    /// The lines at the width of a screen of `size`: the ones kept when they are for it.
    func lines(for size: Size) -> [StyledLine] {
        let key = LayoutKey(width: size.width - 2, raw: showsRawJSON)
        return layout.value(for: key) ?? DetailView.lines(for: item, width: key.width, raw: key.raw)
    }

    /// Scrolls by `delta` lines, stopping at the ends.
    mutating func scroll(by delta: Int, size: Size) {
        let last = max(0, lines(for: size).count - App.listRows(for: size))
        scroll = max(0, min(last, scroll.addingReportingOverflow(delta).partialValue))
    }
}

extension ItemScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .item(let item) = screen else { return nil }
        self = item
    }

    var screen: Screen { .item(self) }

    var itemSelection: ItemSelection? { ItemSelection(item: item, isInOpenFeed: isInOpenFeed) }

    mutating func settle(size: Size) {
        let (item, key) = (item, LayoutKey(width: size.width - 2, raw: showsRawJSON))
        layout.value(for: key) { DetailView.lines(for: item, width: key.width, raw: key.raw) }
    }

    func isSettled(size: Size) -> Bool { layout.value(for: LayoutKey(width: size.width - 2, raw: showsRawJSON)) != nil }

    mutating func resized(to size: Size) { scroll(by: 0, size: size) }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: ItemScreen.self) else { return nil }
        let rows = max(1, App.listRows(for: state.size))
        switch command {
        case .rawJSON:
            screen.showsRawJSON.toggle()
            screen.scroll = 0
            screen.settle(size: state.size)
        case .up: screen.scroll -= 1
        case .down: screen.scroll += 1
        case .pageUp: screen.scroll -= rows
        case .pageDown: screen.scroll += rows
        case .halfUp: screen.scroll -= max(1, rows / 2)
        case .halfDown: screen.scroll += max(1, rows / 2)
        case .first: screen.scroll = 0
        case .last: screen.scroll = .max
        case .open:
            // Enter: the item is what is shown already.
            break
        default:
            return nil
        }
        screen.scroll(by: 0, size: state.size)
        state.screens.shown = .item(screen)
        return []
    }

    // MARK: View

    /// The item's title, its lines, and where the reader is in them.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: Sanitizer.clean(item.title), hint: "q back").render(into: &buffer, area: area)
        let lines = lines(for: state.size)
        DetailView(lines: lines, scroll: scroll).render(into: &buffer, area: App.listArea(for: state.size))
        let last = min(lines.count, scroll + App.listRows(for: state.size))
        let facts = [showsRawJSON ? "raw JSON" : "fields", "lines \(min(lines.count, scroll + 1))-\(last) of \(lines.count)",
                     showsRawJSON ? "v fields" : "v raw JSON"]
        StatusBar(facts: facts).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}
