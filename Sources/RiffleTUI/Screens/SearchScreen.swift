import Foundation
import RiffleKit
import RiffleReading

/// What a search of everything seen found (`S`), from every feed, in the reading log's order: j and k
/// move, Enter shows a match, the item commands that need no feed (open, copy) act on it.
package struct SearchScreen: Sendable, Equatable {
    /// What was searched for.
    package var query: String
    /// The matches; nil while the search runs.
    package var matches: [ReadingLog.Match]?
    /// Why the search failed, if it did.
    package var failure: String?
    package var selection = 0
    package var scroll = 0

    /// The results of searching for `query`, on their way.
    package init(query: String) { self.query = query }

    /// The matches as items the list and the detail can show.
    package var items: [Item] { (matches ?? []).map(SearchScreen.item) }

    /// A match as an item: its feed and author as details, every stored field as its fields.
    static func item(_ match: ReadingLog.Match) -> Item {
        var fields: [(key: String, value: JSONValue)] = [("feed", .string(match.feedTitle)), ("title", .string(match.title))]
        if let author = match.author { fields.append(("author", .string(author))) }
        if let link = match.link { fields.append(("link", .string(link))) }
        if let id = match.id { fields.append(("id", .string(id))) }
        if !match.text.isEmpty { fields.append(("text", .string(match.text))) }
        fields.append(("seen", .bool(match.seenAt != nil)))
        var item = Item(id: match.id, title: match.title, details: [match.feedTitle] + (match.author.map { [$0] } ?? []),
                        url: match.link, createdAt: match.createdAt ?? match.listedAt, fields: .object(JSONObject(fields)))
        item.author = match.author
        return item
    }

    /// What a search found, or why it failed, for the results screen when it still waits for them.
    static func receive(_ matches: [ReadingLog.Match], failure: String?, forQuery query: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: SearchScreen.self), screen.query == query else { return }
        screen.matches = matches
        screen.failure = failure
        state.screens.shown = .search(screen)
    }
}

extension SearchScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .search(let search) = screen else { return nil }
        self = search
    }

    var screen: Screen { .search(self) }

    /// A match is an item of another feed, most often: opening and copying apply, seen marks and
    /// comments (which go through the open feed) do not.
    var itemSelection: ItemSelection? { ItemSelection(item: items[safe: selection], isInOpenFeed: false) }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: SearchScreen.self) else { return nil }
        let count = screen.matches?.count ?? 0
        let rows = max(1, App.listRows(for: state.size))
        switch command {
        case .down, .up, .first, .last, .pageDown, .pageUp, .halfDown, .halfUp:
            screen.selection = max(0, min(count - 1, command.moved(screen.selection, count: count, rows: rows) ?? screen.selection))
            if screen.selection < screen.scroll { screen.scroll = screen.selection }
            if screen.selection >= screen.scroll + rows { screen.scroll = screen.selection - rows + 1 }
            state.screens.shown = .search(screen)
            return []
        case .search:
            // S again: the words searched, to change.
            state.screens.push(.overlay(.prompt(Prompt(.search, text: screen.query))))
            return []
        default:
            return nil
        }
    }

    // MARK: View

    /// Title, feed, author and age of each match, seen ones dimmer.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "search: \(query)", hint: "q back").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let rect = App.listArea(for: state.size)
        let empty = matches == nil ? "searching…" : failure ?? "nothing seen matches \"\(query)\""
        var view = ListView(items: items, selection: selection, offset: scroll, now: state.now, emptyText: empty)
        view.marks = (matches ?? []).map { ListView.Mark(seen: $0.seenAt != nil, arrived: false) }
        view.glyphs = state.settings.marksWithGlyphs
        view.render(into: &buffer, area: rect)
        let count = matches?.count ?? 0
        let facts = matches == nil ? ["searching"]
            : [count == 0 ? "no matches" : "match \(selection + 1)/\(count)", "every feed, offline", "Enter shows · o opens"]
        StatusBar(facts: facts, dropOrder: [2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}
