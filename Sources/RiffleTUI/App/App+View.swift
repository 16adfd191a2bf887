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
        if case .detail(let detail) = state.mode {
            renderDetail(detail, state: state, into: &buffer)
            ToastStack(messages: state.visibleToasts.map(\.message)).render(into: &buffer, area: listArea(for: state.size))
        } else {
            renderList(state, into: &buffer)
        }
        switch state.overlay {
        case .help(let scroll): HelpOverlay(scroll: scroll).render(into: &buffer, area: area)
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
        return state.endOfFeed ? endOfFeed : nil
    }

    /// Feed, page of the selection, item count, where that page came from and its age. When space is
    /// short the feed name goes first (the header has it), then the item count.
    static func statusBar(_ state: AppState) -> StatusBar {
        let count = state.items.count
        var facts = [state.feedTitle, "page \(state.pageNumber)", count == 1 ? "1 item" : "\(count) items"]
        if state.isFiltering { facts[2] = "\(state.rows.count)/\(count) items" }
        if let info = state.pageInfo {
            facts.append(sourceLabel(info, state: state))
            facts.append("fetched \(Timestamp.age(of: info.fetchedAt, now: state.now))")
        }
        var dropOrder = [0, 2]
        if let query = state.filter?.query, state.isFiltering {
            facts.insert("/\(query)", at: 0)
            dropOrder = [1, 3]
        }
        let activity = state.loading.page.map { "loading page \($0)" }
        return StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: dropOrder)
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
