import Foundation
import RiffleKit

/// One item, whole (Enter): the story as people read it (title, site, author, age, score, comments,
/// its text as text, its link); `v` shows every field as "key: value", then its raw JSON. Scrolled
/// by line. Esc or q returns to the screen it was opened from, as it was.
///
/// Only what is on screen is laid out (`BlockPager`): each part (a field, a paragraph) is wrapped
/// when it comes into view, kept while it is near, and made again only when the width or the mode
/// changes. A title of megabytes costs the lines that show.
package struct ItemScreen: Sendable, Equatable {
    /// The item shown (a copy, so a reload of its page does not change it under the reader).
    package let item: Item
    /// Whether it is one of the open feed's items (not a search result from another feed).
    package let isInOpenFeed: Bool
    /// The first line drawn.
    package var top = PagePosition(block: 0, line: 0)
    /// How the item is shown.
    package var mode = DetailView.Mode.story
    private var document = Cached<DetailView.Mode, ItemDocument>()
    /// The lines laid out near the screen.
    package private(set) var laidOut = BlockLines()

    /// Shows `item` from its first line, as a story.
    package init(item: Item, isInOpenFeed: Bool = true) {
        self.item = item
        self.isInOpenFeed = isInOpenFeed
    }

    private func document(for mode: DetailView.Mode) -> ItemDocument {
        document.value(for: mode) ?? ItemDocument(item: item, mode: mode)
    }

    /// The age the facts line ends with, as of `now`.
    private func age(_ now: Date) -> String? { item.createdAt.map { Timestamp.age(of: $0, now: now) } }

    private func key(_ size: Size, _ now: Date) -> BlockLines.Key {
        BlockLines.Key(width: size.width - 2, revision: DetailView.Mode.allCases.firstIndex(of: mode) ?? 0, variant: age(now) ?? "")
    }

    private func pager(_ size: Size, _ now: Date) -> BlockPager<ItemDocument> {
        var document = document(for: mode)
        document.age = age(now)
        return BlockPager(document, key: key(size, now), rows: App.listRows(for: size), store: laidOut)
    }

    /// Moves the top by `delta` lines, stopping at the ends.
    mutating func scroll(by delta: Int, size: Size, now: Date) {
        var pager = pager(size, now)
        top = pager.moved(top, by: delta)
        laidOut = pager.store
    }

    /// The lines on screen for a terminal of `size`.
    func screenLines(for size: Size, now: Date) -> [(block: Int, line: Int, text: StyledLine)] {
        var pager = pager(size, now)
        return pager.screen(from: top)
    }
}

extension ItemScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .item(let item) = screen else { return nil }
        self = item
    }

    var screen: Screen { .item(self) }

    var itemSelection: ItemSelection? { ItemSelection(item: item, isInOpenFeed: isInOpenFeed) }

    mutating func settle(size: Size, now: Date) {
        let (item, mode) = (item, mode)
        document.value(for: mode) { ItemDocument(item: item, mode: mode) }
        var pager = pager(size, now)
        // The screen and the one after it: a page down finds its lines made.
        _ = pager.screen(from: top)
        _ = pager.screen(from: pager.moved(top, by: pager.rows))
        pager.store.trim(around: top.block, limit: 4 * pager.rows + 64)
        laidOut = pager.store
    }

    func isSettled(size: Size, now: Date) -> Bool {
        guard let document = document.value(for: mode) else { return false }
        return laidOut.fills(App.listRows(for: size), from: top, in: document, for: key(size, now))
    }

    mutating func resized(to size: Size, now: Date) {
        top.line = 0
        scroll(by: 0, size: size, now: now)
    }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: ItemScreen.self) else { return nil }
        let rows = max(1, App.listRows(for: state.size))
        switch command {
        case .rawJSON:
            screen.mode = screen.mode.next
            screen.top = PagePosition(block: 0, line: 0)
        case .up: screen.scroll(by: -1, size: state.size, now: state.now)
        case .down: screen.scroll(by: 1, size: state.size, now: state.now)
        case .pageUp: screen.scroll(by: -rows, size: state.size, now: state.now)
        case .pageDown: screen.scroll(by: rows, size: state.size, now: state.now)
        case .halfUp: screen.scroll(by: -max(1, rows / 2), size: state.size, now: state.now)
        case .halfDown: screen.scroll(by: max(1, rows / 2), size: state.size, now: state.now)
        case .first: screen.top = PagePosition(block: 0, line: 0)
        case .last:
            var pager = screen.pager(state.size, state.now)
            screen.top = pager.lastTop
            screen.laidOut = pager.store
        case .open:
            // Enter: the item is what is shown already.
            break
        default:
            return nil
        }
        screen.settle(size: state.size, now: state.now)
        state.screens.shown = .item(screen)
        return []
    }

    // MARK: View

    /// The item's title, its lines, and where the reader is in them.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: item.title, hint: "q back").render(into: &buffer, area: area)
        let body = App.listArea(for: state.size)
        let document = document(for: mode)
        let shown = screenLines(for: state.size, now: state.now)
        for (row, entry) in shown.enumerated() {
            entry.text.render(into: &buffer, x: body.x + 1, y: body.y + row, maxX: body.maxX - 1)
        }
        let count = document.paragraphs.count
        let through = shown.last.map { $0.block + 1 } ?? 0
        let percent = count == 0 ? 100 : min(100, through * 100 / count)
        let facts = [mode.name, top.block == 0 && top.line == 0 ? "top" : "\(percent)%", "v \(mode.next.name)"]
        StatusBar(facts: facts).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}
