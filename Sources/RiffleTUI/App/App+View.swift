import Foundation
import RiffleKit

extension App {
    /// Draws the whole screen for `state`. Pure: the same state always gives the same buffer.
    ///
    /// Line 0 is the header, the last line the status bar, the list between them; toasts cover the
    /// bottom rows of the list.
    public static func view(_ state: AppState) -> Buffer {
        var buffer = Buffer(size: state.size)
        let area = buffer.area
        guard area.width >= minimumSize.width, area.height >= minimumSize.height else {
            Centered(text: area.width >= 18 ? "terminal too small" : "too small", style: Style(.error)).render(into: &buffer, area: area)
            return buffer
        }
        switch state.mode {
        case .detail(let detail):
            renderDetail(detail, state: state, into: &buffer)
            ToastStack(messages: state.visibleToasts.map(\.message)).render(into: &buffer, area: listArea(for: state.size))
        case .comments(let comments):
            renderComments(comments, state: state, into: &buffer)
            ToastStack(messages: state.visibleToasts.map(\.message)).render(into: &buffer, area: listArea(for: state.size))
        case .feeds(let list):
            renderFeeds(list, state: state, into: &buffer)
            ToastStack(messages: state.visibleToasts.map(\.message)).render(into: &buffer, area: listArea(for: state.size))
        case .search(let search):
            renderSearch(search, state: state, into: &buffer)
            ToastStack(messages: state.visibleToasts.map(\.message)).render(into: &buffer, area: listArea(for: state.size))
        case .list:
            renderList(state, into: &buffer)
        }
        if let prompt = state.prompt {
            PromptBar(prompt: prompt).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
        }
        switch state.overlay {
        case .help(let scroll): HelpOverlay(keymap: state.keymap, scroll: scroll).render(into: &buffer, area: area)
        case .log: LogOverlay(messages: state.toasts.map(\.message)).render(into: &buffer, area: area)
        case nil: break
        }
        return buffer
    }

    static func renderList(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: state.feedTitle, hint: "? help").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let list = Rect(x: 0, y: 1, width: area.width, height: listRows(for: state.size))
        let items = state.items
        let rows = state.rows
        var listView = ListView(items: rows.map { items[$0] }, lines: state.lines, selection: state.selection, offset: state.scrollOffset,
                                now: state.now, emptyText: emptyText(state), footer: footer(state))
        if state.seen != nil || !state.arrived.isEmpty {
            listView.marks = rows.map { ListView.Mark(seen: state.isSeen($0) ?? false, arrived: state.arrived.contains(state.keys[$0])) }
            listView.glyphs = state.marksWithGlyphs
        }
        if !state.isAppending, state.failure != nil { listView.footerStyle = Style(.placeholder) }
        listView.render(into: &buffer, area: list)
        renderToasts(state, into: &buffer, list: list)
        let bottom = Rect(x: 0, y: area.height - 1, width: area.width, height: 1)
        if let filter = state.filter, filter.isEditing {
            FilterBar(query: filter.query, matches: rows.count).render(into: &buffer, area: bottom)
        } else {
            statusBar(state).render(into: &buffer, area: bottom)
        }
    }

    /// What an empty list says: loading, why the first page could not be loaded, or that nothing matches.
    static func emptyText(_ state: AppState) -> String {
        if state.pages.isEmpty {
            if !state.requests.isEmpty { return "loading…" }
            if let failure = state.failure { return "\(failure.message)\n\nr to retry" }
        }
        return state.isFiltering && !state.items.isEmpty ? "no matches" : "no items"
    }

    /// Toasts at the bottom of the list, or at its top when they would cover the selected row there;
    /// when neither side has room for all of them, the newest that fit on the roomier side.
    static func renderToasts(_ state: AppState, into buffer: inout Buffer, list: Rect) {
        let messages = state.visibleToasts.map(\.message)
        guard !messages.isEmpty else { return }
        guard state.lineOfRow.indices.contains(state.selection) else {
            ToastStack(messages: messages).render(into: &buffer, area: list)
            return
        }
        let selected = list.y + state.lineOfRow[state.selection] - state.scrollOffset
        let above = max(0, min(list.height, selected - list.y))
        let below = max(0, min(list.height, list.maxY - selected - 1))
        if messages.count <= below || below >= above {
            ToastStack(messages: messages).render(into: &buffer, area: Rect(x: list.x, y: list.maxY - below, width: list.width, height: below))
        } else {
            let shown = min(messages.count, above)
            ToastStack(messages: messages).render(into: &buffer, area: Rect(x: list.x, y: list.y, width: list.width, height: shown))
        }
    }

    /// The row under the last item: a spinner while the next page loads, why it could not be loaded,
    /// or the end of the feed.
    static func footer(_ state: AppState) -> String? {
        if state.isAppending {
            return "\(Spinner(frame: state.spinnerFrame).symbol) loading page \(state.nextPageNumber)…"
        }
        if let failure = state.failure {
            // The way out is what must stay readable: the reason is cut first.
            let retry = " · r to retry"
            return TextWidth.truncate(Sanitizer.clean(failure.message), to: state.size.width - 2 - TextWidth.width(of: retry)) + retry
        }
        return state.endOfFeed ? state.endReason.map(Sanitizer.clean) ?? endOfFeed : nil
    }

    /// Feed, page of the selection, item count, where that page came from and its age. When space is
    /// short the feed name goes first (the header has it), then the item count.
    static func statusBar(_ state: AppState) -> StatusBar {
        var facts = [state.feedTitle, position(state), pagePosition(state)]
        // Facts that may come after the page's, most expendable last in `dropOrder`.
        var optional: [String] = []
        if state.seen != nil { optional.append(state.unseenCount == 0 ? "nothing new" : "\(state.unseenCount) new") }
        if let label = state.sort.label { optional.append(label) }
        if let watch = state.watch { optional.append("watch \(watch.label)") }
        facts += optional
        if let info = state.pageInfo {
            facts.append(sourceLabel(info, state: state))
            facts.append("fetched \(Timestamp.age(of: info.fetchedAt, now: state.now))")
        }
        // Short of space: the feed's name (the header has it), the optional facts, then the item's place.
        var dropOrder = [0] + (3..<3 + optional.count).reversed() + [1]
        if let query = state.filter?.query, state.isFiltering {
            facts.insert("/\(query)", at: 0)
            dropOrder = dropOrder.map { $0 + 1 }
        }
        let activity = state.loading.page.map { "loading page \($0)" }
        return StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: dropOrder)
    }

    /// "item 12/90": the selection among the items listed (the feed's total when it says and no
    /// filter hides any; "of 90" after the matches when one does).
    static func position(_ state: AppState) -> String {
        let listed = state.listed.count
        guard !state.rows.isEmpty else { return listed == 0 ? "0 items" : "0 of \(listed) items" }
        let place = min(state.selection + 1, state.rows.count)
        if state.isFiltering { return "item \(place)/\(state.rows.count) of \(listed)" }
        let total = state.pages.last?.totalItems.map { max($0, listed) } ?? listed
        return "item \(place)/\(total)"
    }

    /// "page 2 of 9" when the feed says how many pages it has, else "page 2".
    static func pagePosition(_ state: AppState) -> String {
        let total = state.selectedPage?.totalPages ?? state.pages.last?.totalPages
        guard let total, total >= state.pageNumber else { return "page \(state.pageNumber)" }
        return "page \(state.pageNumber) of \(total)"
    }

    /// "offline" after a connection failure, else "network" (also for a page the server confirmed
    /// unchanged), "stale" for a page the cache could not revalidate or past its own freshness
    /// (`PageInfo.freshUntil`; without one, older than `AppState.staleAfter`), else "cache".
    static func sourceLabel(_ info: PageInfo, state: AppState) -> String {
        if state.isOffline { return "offline" }
        switch info.source {
        case .network, .revalidated: return "network"
        case .stale: return "stale"
        case .cache:
            let stale = info.freshUntil.map { state.now >= $0 } ?? (state.now.timeIntervalSince(info.fetchedAt) > state.staleAfter)
            return stale ? "stale" : "cache"
        }
    }
}
