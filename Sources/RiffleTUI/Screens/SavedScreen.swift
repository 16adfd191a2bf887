import Foundation
import RiffleKit
import RiffleReading

/// The items saved with `f`, from every feed, the last saved first (the feed list's "saved"). They
/// come from the reading log, so the list needs no network: Enter shows one, `o` opens its link,
/// `y` copies it, `f` unsaves it, `c` opens its feed and its comments there.
package struct SavedScreen: Sendable, Equatable {
    /// The saved items; nil until the reading log answered.
    package var saved: [ReadingLog.SavedItem]?
    package var selection = 0
    package var scroll = 0
    /// The saved item whose feed is being opened (`c`), handed to that feed's list once it is open.
    package var opening: Reveal?

    /// The saved items, on their way.
    package init(saved: [ReadingLog.SavedItem]? = nil) { self.saved = saved }

    /// Each saved item with its feed's name first among its details.
    package var items: [Item] {
        (saved ?? []).map { saved in
            var item = saved.item
            item.details = [saved.feedTitle] + item.details
            return item
        }
    }

    /// The saved items have come: shown on the saved screen, counted in the feed list under it.
    static func receive(_ saved: [ReadingLog.SavedItem], in state: inout AppState) {
        if var screen = state.screens.shown(as: SavedScreen.self) {
            screen.saved = saved
            screen.selection = max(0, min(screen.selection, saved.count - 1))
            state.screens.shown = .saved(screen)
        }
        FeedsScreen.noteSaved(saved.count, in: &state)
    }
}

extension SavedScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .saved(let saved) = screen else { return nil }
        self = saved
    }

    var screen: Screen { .saved(self) }

    /// A saved item is most often of another feed than the open one: opening and copying apply,
    /// seen marks and comments (which go through the open feed) do not.
    var itemSelection: ItemSelection? { ItemSelection(item: items[safe: selection], isInOpenFeed: false) }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: SavedScreen.self) else { return nil }
        let count = screen.saved?.count ?? 0
        let rows = max(1, App.listRows(for: state.size))
        switch command {
        case .down, .up, .first, .last, .pageDown, .pageUp, .halfDown, .halfUp:
            screen.selection = max(0, min(count - 1, command.moved(screen.selection, count: count, rows: rows) ?? screen.selection))
            screen.keepSelectionVisible(rows: rows)
            state.screens.shown = .saved(screen)
            return []
        case .save:
            // f: no longer saved; it leaves the list at once.
            guard var saved = screen.saved, saved.indices.contains(screen.selection) else { return [] }
            let gone = saved.remove(at: screen.selection)
            screen.saved = saved
            screen.selection = max(0, min(screen.selection, saved.count - 1))
            screen.keepSelectionVisible(rows: rows)
            state.screens.shown = .saved(screen)
            App.raise(&state, "no longer saved")
            return [.unsave(feedID: gone.feedID, key: gone.key)]
        case .reload:
            return [.listSaved]
        case .comments:
            return openComments(screen, &state)
        default:
            return nil
        }
    }

    /// `c`: comments go through the item's feed (its rules say where they are, its headers go with
    /// the request), so the feed is opened under them, as from search results; the saved copy has
    /// every field the comments' URL needs, so an item the feed has since pushed out still has them.
    static func openComments(_ screen: SavedScreen, _ state: inout AppState) -> [Effect] {
        var screen = screen
        guard let saved = screen.saved?[safe: screen.selection] else { return [] }
        guard let name = saved.feedName else {
            App.raise(&state, "no comments: riffle does not know how to open \(saved.feedTitle) again (open it once)")
            return []
        }
        screen.opening = Reveal(key: saved.key, title: saved.item.title, then: .comments, item: saved.item)
        state.screens.shown = .saved(screen)
        return [.openFeed(name)]
    }

    mutating func keepSelectionVisible(rows: Int) {
        if selection < scroll { scroll = selection }
        if selection >= scroll + rows { scroll = selection - rows + 1 }
        scroll = max(0, min(scroll, max(0, (saved?.count ?? 0) - rows)))
    }

    // MARK: View

    /// Title, feed, author and age of each saved item.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "saved", hint: "q back").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let empty = saved == nil ? "reading…" : "nothing saved: f on an item saves it"
        let view = ListView(items: items, selection: selection, offset: scroll, now: state.now, emptyText: empty)
        view.render(into: &buffer, area: App.listArea(for: state.size))
        let count = saved?.count ?? 0
        let facts = saved == nil ? ["reading"]
            : [count == 0 ? "nothing saved" : "item \(selection + 1)/\(count)", "every feed, offline", "f unsaves · o opens · c comments"]
        StatusBar(facts: facts, dropOrder: [2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    func rowToKeepClear(_ state: AppState) -> Int? {
        guard let saved, saved.indices.contains(selection) else { return nil }
        return App.listArea(for: state.size).y + selection - scroll
    }
}
