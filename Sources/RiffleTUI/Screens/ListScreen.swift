import Foundation
import RiffleKit

/// The open feed's list: every loaded page in order (infinite scroll), the selected row, the `/`
/// filter and the order (`s`).
///
/// Where each item sits (`index`) is computed from the pages, the filter's text and the order, and
/// kept with the key it was made for (`Cached`): the mutations below make it afresh at once, a read
/// after any other change makes it on the spot, and `App.update` leaves it made.
package struct ListScreen: Sendable, Equatable {
    /// The loaded pages, consecutive and in order.
    package private(set) var pages = LoadedPages()
    /// The `/` filter, while typed or kept.
    package private(set) var filter: FilterState?
    /// The order of the list (`s`).
    package private(set) var sort: SortOrder = .feed
    /// The feed's rules: the items they hide are not listed (`Feed.hide`).
    package private(set) var hide: [HideRule] = []
    /// Whether the items the rules hide are listed anyway, dimmed (`H`).
    package private(set) var showsHidden = false
    /// The highlighted row, an index into `rows` (the items the filter lets through).
    package var selection = 0
    /// The index in `lines` of the first line drawn.
    package var scrollOffset = 0
    private var indexCache = Cached<ListIndex.Key, ListIndex>()
    private var unseenCache = Cached<UnseenKey, Int>()

    private struct UnseenKey: Sendable, Equatable {
        var pages: Int
        var seen: Int
        var hide: [HideRule]
        var showsHidden: Bool
    }

    package init() {}

    private func unseenKey(_ reading: ReadingMarks) -> UnseenKey {
        UnseenKey(pages: pages.revision.count, seen: reading.revision.count, hide: hide, showsHidden: showsHidden)
    }

    private var indexKey: ListIndex.Key {
        ListIndex.Key(pages: pages.revision.count, query: filter?.query ?? "", sort: sort, hide: hide, showsHidden: showsHidden)
    }

    /// Where every loaded item sits: the one kept when it is not stale, else made on the spot.
    package var index: ListIndex {
        indexCache.value(for: indexKey) ?? ListIndex(pages: pages.all, query: filter?.query ?? "", sort: sort, hide: hide, showsHidden: showsHidden)
    }

    /// Makes the index (and the unseen count) afresh if what they come from changed.
    mutating func settle(reading: ReadingMarks) {
        let index = refreshIndex()
        unseenCache.value(for: unseenKey(reading)) {
            Self.countUnseen(index, reading)
        }
    }

    @discardableResult
    private mutating func refreshIndex() -> ListIndex {
        let (pages, query, sort, hide, showsHidden) = (pages.all, filter?.query ?? "", sort, hide, showsHidden)
        return indexCache.value(for: indexKey) { ListIndex(pages: pages, query: query, sort: sort, hide: hide, showsHidden: showsHidden) }
    }

    /// Whether the index and the unseen count kept are the ones for the pages, filter and order as
    /// they are and for `reading`: what `settle` leaves.
    func isSettled(_ reading: ReadingMarks) -> Bool {
        indexCache.value(for: indexKey) != nil
            && unseenCache.value(for: unseenKey(reading)) != nil
    }

    /// How many listed items (duplicates once) are unseen; 0 until the reading log has answered.
    func unseenCount(_ reading: ReadingMarks) -> Int {
        unseenCache.value(for: unseenKey(reading)) ?? Self.countUnseen(index, reading)
    }

    private static func countUnseen(_ index: ListIndex, _ reading: ReadingMarks) -> Int {
        guard let seen = reading.seen else { return 0 }
        return index.listed.reduce(0) { $0 + (seen.contains(index.keys[$1]) ? 0 : 1) }
    }

    // MARK: Changes (each makes the index afresh)

    /// Adds `page` after the last one.
    mutating func append(_ page: LoadedPage) {
        pages.append(page)
        refreshIndex()
    }

    /// Removes the page at `position` in `pages` and every page after it.
    mutating func removePages(from position: Int) {
        pages.removeAll(from: position)
        refreshIndex()
    }

    /// Puts `page` in place of the page at `position` in `pages`.
    mutating func replacePage(at position: Int, with page: LoadedPage) {
        pages.replace(at: position, with: page)
        refreshIndex()
    }

    /// Puts `page`, a newer copy of the page at `position`, in its place, keeping the items that
    /// moved on to a later page (`LoadedPages.merge`).
    mutating func mergePage(at position: Int, with page: LoadedPage, refreshed: Set<Int> = []) {
        pages.merge(page, at: position, refreshed: refreshed)
        refreshIndex()
    }

    /// Sets the filter (nil: none).
    mutating func setFilter(_ filter: FilterState?) {
        self.filter = filter
        refreshIndex()
    }

    /// Sets the order.
    mutating func setSort(_ sort: SortOrder) {
        self.sort = sort
        refreshIndex()
    }

    /// Sets the rules that hide items (the open feed's).
    package mutating func setHide(_ rules: [HideRule]) {
        hide = rules
        refreshIndex()
    }

    /// Lists the items the rules hide (dimmed), or no longer.
    mutating func setShowsHidden(_ shows: Bool) {
        showsHidden = shows
        refreshIndex()
    }

    // MARK: Reading the index

    /// Every loaded item, page after page.
    package var items: [Item] { index.items }
    /// The rows: indices into `items` of the items shown, in the list's order.
    package var rows: [Int] { index.rows }
    /// What is drawn, top to bottom: rows and "page N" lines.
    package var lines: [ListView.Line] { index.lines }
    /// The index in `lines` of each row.
    package var lineOfRow: [Int] { index.lineOfRow }

    /// Whether a non-empty filter hides some items.
    package var isFiltering: Bool { !(filter?.query.isEmpty ?? true) }

    /// How many loaded items (duplicates once) the rules hide, shown or not.
    package var hiddenCount: Int { index.hidden.count }

    /// The index in `items` of the highlighted item.
    package var selectedIndex: Int? {
        let rows = index.rows
        return rows.indices.contains(selection) ? rows[selection] : nil
    }

    /// The highlighted item, if any.
    package var selectedItem: Item? {
        let index = index
        return index.rows.indices.contains(selection) ? index.items[index.rows[selection]] : nil
    }

    /// The highlighted item's `readingKey`, if any.
    package var selectedKey: String? {
        let index = index
        return index.rows.indices.contains(selection) ? index.keys[index.rows[selection]] : nil
    }

    /// The page holding the selected item.
    package var selectedPage: LoadedPage? {
        selectedIndex.flatMap { index.pagePosition(ofItem: $0) }.map { pages.all[$0] }
    }

    /// The page the selected item belongs to (the status bar's "page N"); 1 before anything loaded.
    package var pageNumber: Int { selectedPage?.number ?? pages.first?.number ?? 1 }

    /// Where the selected item's page came from; nil until a page has arrived.
    package var pageInfo: PageInfo? { (selectedPage ?? pages.first)?.info }

    /// The index in `items` of page `number`'s first item; nil when that page is not loaded.
    package func firstIndex(ofPage number: Int) -> Int? {
        pages.position(of: number).flatMap { index.firstItem(ofPagePosition: $0) }
    }

    /// The first row showing an item of page `number`; nil when none does (not loaded, or filtered out).
    package func firstRow(ofPage number: Int) -> Int? {
        guard let position = pages.position(of: number) else { return nil }
        let index = index
        guard let start = index.firstItem(ofPagePosition: position) else { return nil }
        let end = start + index.itemCount(ofPagePosition: position)
        return index.rows.firstIndex { $0 >= start && $0 < end }
    }
}

// MARK: Keys

extension ListScreen: ScreenContent {
    var itemSelection: ItemSelection? { ItemSelection(item: selectedItem, isInOpenFeed: true) }

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        let rows = max(1, App.listRows(for: state.size))
        switch command {
        case .up: return App.move(&state, by: -1)
        case .down: return App.move(&state, by: 1)
        case .first: App.select(&state, 0)
        case .last: App.select(&state, state.list.rows.count - 1)
        case .pageUp: return App.move(&state, by: -rows)
        case .pageDown: return App.move(&state, by: rows)
        case .halfUp: return App.move(&state, by: -max(1, rows / 2))
        case .halfDown: return App.move(&state, by: max(1, rows / 2))
        case .nextPage: return App.jump(&state, by: 1)
        case .previousPage: return App.jump(&state, by: -1)
        case .reload:
            // A failed load (the first page, or the next one) is retried; else this page is reloaded.
            guard !state.list.pages.isEmpty, state.feed.paging.failure == nil else { return App.appendNextPage(&state, explicit: true) }
            return App.reloadPages(&state, [state.list.pageNumber])
        case .reloadAll:
            guard !state.list.pages.isEmpty else { return App.appendNextPage(&state, explicit: true) }
            return App.reloadPages(&state, state.list.pages.all.map(\.number))
        case .filter:
            state.list.setFilter(FilterState(query: state.list.filter?.query ?? "", isEditing: true))
        case .back:
            // Esc clears the filter first; without one it goes back like any screen.
            guard state.list.filter != nil else { return nil }
            clearFilter(&state)
        case .markAllSeen: return App.markAllSeen(&state)
        case .nextUnseen: return App.selectNextUnseen(&state)
        case .sort: changeSort(&state)
        case .showHidden: toggleHidden(&state)
        case .watch: App.toggleWatch(&state)
        case .feeds: return App.showFeeds(&state)
        case .edit: return App.showFieldPicker(&state)
        default: return nil
        }
        return []
    }

    /// Keys while the filter is typed: text edits it, Enter keeps it, Esc clears it; arrows still move.
    static func pressInFilter(_ key: Key, in state: inout AppState) -> [Effect] {
        guard var filter = state.list.filter else { return [] }
        switch key {
        case .enter:
            state.list.setFilter(filter.query.isEmpty ? nil : FilterState(query: filter.query, isEditing: false))
            return []
        case .escape:
            clearFilter(&state)
            return []
        case .up, .down, .pageUp, .pageDown, .home, .end:
            // The list moves while the filter is typed (Ctrl-A and Ctrl-E move the cursor).
            guard let command = state.settings.keymap.command(for: key) else { return [] }
            return press(command, in: &state) ?? []
        default:
            guard filter.field.edit(key) else { return [] }
        }
        refilter(&state) { $0.setFilter(filter) }
        return []
    }

    /// Esc: shows every item again, still on the item that was selected.
    static func clearFilter(_ state: inout AppState) {
        guard state.list.filter != nil else { return }
        refilter(&state) { $0.setFilter(nil) }
    }

    /// `s`: the next order (feed, newest, score), the selected item still selected.
    static func changeSort(_ state: inout AppState) {
        let next = state.list.sort.next
        refilter(&state) { $0.setSort(next) }
        App.raise(&state, next.label.map { "sorted: \($0)" } ?? "in feed order", topic: .sort)
    }

    /// `H`: the items the rules hide are listed, dimmed, so the user can check what a rule hides; or
    /// hidden again. The selected item stays selected when it still shows.
    static func toggleHidden(_ state: inout AppState) {
        guard !state.list.hide.isEmpty else {
            App.raise(&state, "no rules hide items of this feed (\"hide\" in feeds.json)", topic: .hidden)
            return
        }
        let shows = !state.list.showsHidden
        refilter(&state) { $0.setShowsHidden(shows) }
        let count = state.list.hiddenCount
        let items = count == 1 ? "1 item" : "\(count) items"
        App.raise(&state, shows ? "showing \(items) the rules hide, dimmed" : "hiding \(items) again", topic: .hidden)
    }

    /// The rules `x` offers for items like `item`: its author, and its link's site (without `www.`),
    /// those it has and that read as rules.
    static func rules(like item: Item) -> [HideRule] {
        var texts: [String] = []
        if let author = item.author, !author.isEmpty { texts.append("author:" + author) }
        if let host = HideRule.host(of: item.url) { texts.append("site:" + (host.hasPrefix("www.") ? String(host.dropFirst(4)) : host)) }
        return texts.compactMap { try? HideRule($0) }
    }

    /// A rule was added (`x`): the list hides with `rules` now. The row selected stays selected, holding
    /// the next item listed when its own is hidden now.
    static func hideMore(_ state: inout AppState, rules: [HideRule], message: String) {
        let before = (item: state.list.selectedIndex, row: state.list.selection, hidden: state.list.hiddenCount)
        state.list.setHide(rules)
        let rows = state.list.rows
        state.list.selection = before.item.flatMap { rows.firstIndex(of: $0) } ?? max(0, min(before.row, rows.count - 1))
        state.feed.paging.pendingJump = nil
        App.keepSelectionVisible(&state)
        let count = state.list.hiddenCount - before.hidden
        App.raise(&state, message + (count > 0 ? " (\(count) loaded \(count == 1 ? "item" : "items") hidden)" : ""), topic: .hidden)
    }

    /// Changes the filter or the order, keeping the selected item selected when it still shows, else
    /// the first row.
    static func refilter(_ state: inout AppState, _ change: (inout ListScreen) -> Void) {
        let selected = state.list.selectedIndex
        change(&state.list)
        state.list.selection = selected.flatMap { state.list.rows.firstIndex(of: $0) } ?? 0
        state.feed.paging.pendingJump = nil
        App.keepSelectionVisible(&state)
    }
}

// MARK: View

extension ListScreen {
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: state.feed.title, hint: "? help").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let index = index
        var listView = ListView(items: index.rows.map { index.items[$0] }, lines: index.lines, selection: selection, offset: scrollOffset,
                                now: state.now, emptyText: emptyText(state), footer: footer(state))
        let reading = state.feed.reading
        let dimsHidden = showsHidden && !index.hidden.isEmpty
        if reading.seen != nil || !reading.arrived.isEmpty || !reading.saved.isEmpty || dimsHidden {
            listView.marks = index.rows.map {
                ListView.Mark(seen: reading.isSeen(index.keys[$0]) ?? false, arrived: reading.arrived.contains(index.keys[$0]),
                              saved: reading.isSaved(index.keys[$0]), hidden: dimsHidden && index.hidden.contains($0))
            }
            listView.glyphs = state.settings.marksWithGlyphs
        }
        if !state.feed.paging.isAppending, state.feed.paging.failure != nil { listView.footerStyle = Style(.placeholder) }
        listView.render(into: &buffer, area: App.listArea(for: state.size))
        let bottom = Rect(x: 0, y: area.height - 1, width: area.width, height: 1)
        if let filter, filter.isEditing {
            FilterBar(field: filter.field, matches: index.rows.count).render(into: &buffer, area: bottom)
        } else {
            statusBar(state).render(into: &buffer, area: bottom)
        }
    }

    func rowToKeepClear(_ state: AppState) -> Int? {
        let lineOfRow = index.lineOfRow
        guard lineOfRow.indices.contains(selection) else { return nil }
        return App.listArea(for: state.size).y + lineOfRow[selection] - scrollOffset
    }

    /// What an empty list says: loading, why the first page could not be loaded, or that nothing matches.
    func emptyText(_ state: AppState) -> String {
        if pages.isEmpty {
            if !state.feed.paging.requests.isEmpty { return "loading…" }
            if let failure = state.feed.paging.failure { return "\(failure.message)\n\nr to retry" }
        }
        if !isFiltering, !showsHidden, !index.hidden.isEmpty, index.listed.isEmpty {
            // Every item loaded is hidden: say so, and the ways on (more pages, or showing them).
            let keys = state.settings.keymap
            let show = keys.keys(for: .showHidden).first.map { "\(KeyMap.label($0)) shows them" }
            let next = state.feed.paging.endOfFeed ? nil : keys.keys(for: .nextPage).first.map { "\(KeyMap.label($0)) loads the next page" }
            let count = index.hidden.count
            let ways = [show, next].compactMap(\.self).joined(separator: " · ")
            return (count == 1 ? "the 1 item loaded is hidden by rules" : "all \(count) items loaded are hidden by rules") + (ways.isEmpty ? "" : "\n\n" + ways)
        }
        return isFiltering && !index.items.isEmpty ? "no matches" : "no items"
    }

    /// The row under the last item: a spinner while the next page loads, why it could not be loaded,
    /// or the end of the feed.
    func footer(_ state: AppState) -> String? {
        let paging = state.feed.paging
        if paging.isAppending {
            return "\(Spinner(frame: state.spinnerFrame).symbol) loading page \(pages.nextNumber)…"
        }
        if let failure = paging.failure {
            // The way out is what must stay readable: the reason is cut first.
            let retry = " · r to retry"
            return TextWidth.truncate(Sanitizer.clean(failure.message), to: state.size.width - 2 - TextWidth.width(of: retry)) + retry
        }
        return paging.endOfFeed ? paging.endReason.map(Sanitizer.clean) ?? App.endOfFeed : nil
    }
}
