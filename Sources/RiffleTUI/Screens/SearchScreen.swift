import Foundation
import RiffleKit
import RiffleReading

/// What a search of everything seen found (`S`), from every feed, newest first (`s`: best match
/// first): j and k move, Enter opens a match in its feed (its pages read until it is listed, from the
/// disk when stored) and `c` its comments there; the item commands that need no feed (`o`, `y`, `Y`)
/// act on the match itself. What the rules of a match's feed hide is left out, as the list leaves it
/// out, and `H` lists it, dimmed.
package struct SearchScreen: Sendable, Equatable {
    /// What was searched for.
    package var query: String
    /// The order of the matches (`s` switches).
    package var order: ReadingLog.Order
    /// The matches; nil while the search runs.
    package var matches: [ReadingLog.Match]?
    /// Why the search failed, if it did.
    package var failure: String?
    /// Which of `matches` (their places) the rules of their feeds hide.
    package var hidden: Set<Int> = []
    /// Whether those are listed too (`H`), dimmed.
    package var showsHidden = false
    package var selection = 0
    package var scroll = 0
    /// The match whose feed is being opened (Enter, `c`), handed to that feed's list once it is open.
    package var opening: Reveal?

    /// The results of searching for `query`, on their way.
    package init(query: String, order: ReadingLog.Order = .newest) {
        self.query = query
        self.order = order
    }

    /// The places in `matches` of the matches listed: all of them while `showsHidden`, else those
    /// the rules leave.
    package var rows: [Int] {
        let all = (matches ?? []).indices
        return showsHidden || hidden.isEmpty ? Array(all) : all.filter { !hidden.contains($0) }
    }

    /// The matches listed.
    package var listed: [ReadingLog.Match] { rows.map { matches![$0] } }

    /// The matches listed as items the list and the detail can show.
    package var items: [Item] { listed.map(SearchScreen.item) }

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

    /// What a search found (`hidden`: the places of the matches the rules of their feeds hide), or why
    /// it failed, for the results screen when it still waits for them.
    static func receive(_ matches: [ReadingLog.Match], hidden: Set<Int> = [], unapplied: [String] = [], failure: String?,
                        forQuery query: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: SearchScreen.self), screen.query == query else { return }
        screen.matches = matches
        screen.hidden = hidden.filter { matches.indices.contains($0) }
        screen.failure = failure
        state.screens.shown = .search(screen)
        // Said rather than left to look applied, as `riffle search --hide` says it.
        if !unapplied.isEmpty { App.raise(&state, unappliedNote(unapplied)) }
    }

    /// The toast for `.PATH:` rules search cannot apply: `'.kind:job' not applied: search keeps no item's JSON`.
    static func unappliedNote(_ rules: [String]) -> String {
        rules.map { "'\($0)'" }.joined(separator: ", ") + " not applied: search keeps no item's JSON"
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
        let count = screen.rows.count
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
        case .sort:
            // The same words in the other order, asked afresh: the first `limit` differ by order.
            let showsHidden = screen.showsHidden
            screen = SearchScreen(query: screen.query, order: screen.order == .newest ? .relevance : .newest)
            screen.showsHidden = showsHidden
            state.screens.shown = .search(screen)
            return [.search(screen.query, order: screen.order)]
        case .open, .comments:
            return openInFeed(command == .comments ? .comments : .open, screen, &state)
        case .showHidden:
            toggleHidden(&screen, &state)
            state.screens.shown = .search(screen)
            return []
        default:
            return nil
        }
    }

    /// `H`: the matches the rules hide are listed, dimmed, or left out again, as on the list. The
    /// selected match stays selected when it still shows, else the next one that does.
    static func toggleHidden(_ screen: inout SearchScreen, _ state: inout AppState) {
        guard !screen.hidden.isEmpty else {
            App.raise(&state, screen.matches == nil ? "still searching" : "the rules hide none of these matches (\"hide\" in feeds.json)",
                      topic: .hidden)
            return
        }
        let selected = screen.rows[safe: screen.selection]
        screen.showsHidden.toggle()
        let rows = screen.rows
        screen.selection = selected.map { selected in rows.firstIndex { $0 >= selected } ?? rows.count - 1 } ?? 0
        screen.selection = max(0, screen.selection)
        let rowsOnScreen = max(1, App.listRows(for: state.size))
        screen.scroll = min(screen.scroll, screen.selection)
        if screen.selection >= screen.scroll + rowsOnScreen { screen.scroll = screen.selection - rowsOnScreen + 1 }
        let count = screen.hidden.count
        let matches = count == 1 ? "1 match" : "\(count) matches"
        App.raise(&state, screen.showsHidden ? "showing \(matches) the rules hide, dimmed" : "hiding \(matches) again", topic: .hidden)
    }

    /// Enter and `c`: opens the match's feed and reveals the match there. A match whose feed the
    /// reading log cannot open again (filed before feeds were noted) shows its own fields on Enter.
    static func openInFeed(_ then: Reveal.Then, _ screen: SearchScreen, _ state: inout AppState) -> [Effect] {
        var screen = screen
        guard let match = screen.listed[safe: screen.selection] else { return [] }
        guard let name = match.feedName else {
            if then == .open {
                state.screens.push(.item(ItemScreen(item: item(match), isInOpenFeed: false)))
            } else {
                App.raise(&state, "no comments: riffle does not know how to open \(match.feedTitle) again (open it once)")
            }
            return []
        }
        screen.opening = Reveal(key: match.key, title: match.title, then: then)
        state.screens.shown = .search(screen)
        return [.openFeed(name)]
    }

    // MARK: View

    /// Title, feed, author and age of each match, seen ones dimmer.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "search: \(query)", hint: "q back").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let rect = App.listArea(for: state.size)
        let rows = rows
        var empty = matches == nil ? "searching…" : failure ?? "nothing seen matches \"\(query)\""
        if rows.isEmpty, !hidden.isEmpty {
            let show = state.settings.keymap.keys(for: .showHidden).first.map { "\n\n\(KeyMap.label($0)) shows them" } ?? ""
            empty = (hidden.count == 1 ? "the 1 match is hidden by rules" : "all \(hidden.count) matches are hidden by rules") + show
        }
        var view = ListView(items: items, selection: selection, offset: scroll, now: state.now, emptyText: empty)
        view.marks = rows.map { ListView.Mark(seen: matches![$0].seenAt != nil, arrived: false, hidden: showsHidden && hidden.contains($0)) }
        view.glyphs = state.settings.marksWithGlyphs
        view.render(into: &buffer, area: rect)
        let count = rows.count
        let sorted = order == .newest ? "newest first" : "best match first"
        var facts = [count == 0 ? "no matches" : "match \(selection + 1)/\(count)"]
        if !hidden.isEmpty { facts.append(showsHidden ? "\(hidden.count) hidden shown" : "\(hidden.count) hidden") }
        facts += [sorted, "every feed, offline", "Enter opens in its feed · c comments · s order"]
        // Short of space: the hints, then "every feed", then the order, then the hidden count.
        let last = facts.count - 1
        let dropOrder = matches == nil ? [1] : Array((1...last).reversed())
        if matches == nil { facts = ["searching", sorted] }
        StatusBar(facts: facts, dropOrder: dropOrder).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}
