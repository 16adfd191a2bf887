import Foundation
import RiffleKit

extension App {
    /// What the list's last line says at the end of a feed (unless the loader gave a reason).
    static let endOfFeed = "end of feed"

    /// Asks for the page after the last loaded one, unless one is in flight or the feed has ended.
    /// - Parameter explicit: the user asked (rather than a prefetch), so a paused prefetch resumes.
    static func appendNextPage(_ state: inout AppState, explicit: Bool) -> [Effect] {
        if explicit { state.feed.paging.prefetchPaused = false }
        let paging = state.feed.paging
        guard !paging.isAppending, !paging.endOfFeed, !paging.prefetchPaused else { return [] }
        return send(&state, PageLoad(page: state.list.pages.nextNumber, policy: .returnCacheElseLoad, purpose: .append))
    }

    /// Loads the next page in the background once the selection is in the last third of the list.
    /// Not while filtering: a filter matching little would otherwise pull in the whole feed.
    static func prefetchIfNeeded(_ state: inout AppState) -> [Effect] {
        let count = state.list.rows.count
        guard !state.list.isFiltering, state.list.sort == .feed, count > 0, state.list.selection >= count * 2 / 3 else { return [] }
        return appendNextPage(&state, explicit: false)
    }

    /// Pages the rules hid whole that are loaded one after another without the user asking again.
    static let hiddenPagesInARow = 4

    /// Reloads loaded page `number` from the network, unless a reload of it is already in flight.
    static func reload(_ state: inout AppState, page number: Int) -> [Effect] {
        guard !state.feed.paging.requests.contains(where: { $0.page == number && $0.purpose == .reload }) else { return [] }
        return send(&state, PageLoad(page: number, policy: .reloadIgnoringCache, purpose: .reload))
    }

    /// `r` and `R`: reloads `numbers`, and says once they are all answered what they brought
    /// ("3 new items", "no new items").
    static func reloadPages(_ state: inout AppState, _ numbers: [Int]) -> [Effect] {
        let effects = numbers.flatMap { reload(&state, page: $0) }
        let asked = Set(state.feed.paging.requests.filter { $0.purpose == .reload }.map(\.page))
        if !asked.isEmpty { state.feed.paging.reloads = ReloadTally(pending: asked.union(state.feed.paging.reloads?.pending ?? [])) }
        return effects
    }

    static func send(_ state: inout AppState, _ request: PageLoad) -> [Effect] {
        if state.feed.paging.failure?.page == request.page { state.feed.paging.failure = nil }
        state.feed.paging.requests.append(request)
        return [.load(page: request.page, policy: request.policy)]
    }

    /// `n` and `p`: select the first item of the page after (or before) the one the user is heading
    /// to, which is the one a pending jump waits for, else the selection's. Pressing `n` twice quickly
    /// means "two pages on": the second jump supersedes the first, so page 2 is added below but the
    /// selection waits for page 3.
    static func jump(_ state: inout AppState, by delta: Int) -> [Effect] {
        state.feed.paging.unseenSearch = nil
        state.feed.paging.hiddenPages = 0
        // Sorted, pages are not where the list is split: `n` only brings the next page in.
        guard state.list.sort == .feed else { return delta > 0 ? appendNextPage(&state, explicit: true) : [] }
        let target = (state.feed.paging.pendingJump ?? state.list.pageNumber) + delta
        guard target >= (state.list.pages.first?.number ?? 1) else { return [] }
        if target < state.list.pages.nextNumber, let start = state.list.firstIndex(ofPage: target),
           // When the filter hides the whole page, the next item shown after it.
           let row = state.list.rows.firstIndex(where: { $0 >= start }) {
            select(&state, row)
            bringSelectionToTop(&state)
            return []
        }
        guard !state.feed.paging.endOfFeed else {
            // The end is said in one place, the list's last line: `n` brings it into view (on the last
            // item) rather than raising a toast that would say it a second time over it.
            select(&state, state.list.rows.count - 1)
            return []
        }
        state.feed.paging.pendingJump = max(target, state.list.pages.nextNumber)
        return appendNextPage(&state, explicit: true)
    }

    /// A jump that cannot reach its page (the feed ended, or a page on the way failed) goes as far as
    /// it got, as the same `n`s pressed one at a time would have: to the first item of the last page
    /// loaded, when that is past the selection's page. (It stayed where it was: `n` pressed five
    /// times while page 2 loaded, then page 3 failing, left the selection on page 1.)
    static func endJumpShort(_ state: inout AppState) {
        guard state.feed.paging.pendingJump != nil else { return }
        state.feed.paging.pendingJump = nil
        guard let last = state.list.pages.all.last?.number, last > state.list.pageNumber,
              let row = state.list.firstRow(ofPage: last) else { return }
        select(&state, row)
        bringSelectionToTop(&state)
    }

    /// Takes a page that arrived. Answers nobody is waiting for (stale, superseded) are dropped. A page
    /// that is shown (its items listed) is recorded in the reading log, first, so it can be found by
    /// search and marked seen.
    static func receive(_ state: inout AppState, _ page: Page) -> [Effect] {
        let record: [Effect] = page.items.isEmpty ? [] : [.record(page.items)]
        guard let i = state.feed.paging.requests.firstIndex(where: { $0.page == page.number }) else {
            // A newer copy of a page already on screen (the first frame came straight from disk and
            // the loader then revalidated it): the same load's later answer, taken in place, quietly.
            guard page.source != .cache, let k = state.list.pages.position(of: page.number) else { return [] }
            noteSource(&state, page)
            state.feed.reading.noteListed(page.items)
            replace(&state, at: k, with: LoadedPage(page), merging: false)
            return record
        }
        let request = state.feed.paging.requests.remove(at: i)
        if state.feed.paging.failure?.page == page.number { state.feed.paging.failure = nil }
        noteSource(&state, page)
        if let k = state.list.pages.position(of: page.number) {
            // Merged by id into what is loaded: items that moved on to a later page stay listed, and
            // what is new is what the list never held (wherever it was) and was not seen.
            let arrived = state.feed.reading.noteListed(page.items)
            let refreshed = request.purpose == .reload ? state.feed.paging.reloads?.refreshed ?? [] : []
            replace(&state, at: k, with: LoadedPage(page), merging: true, refreshed: refreshed)
            state.feed.reading.arrived.formUnion(arrived)
            tallyReload(&state, page: page.number, purpose: request.purpose, arrived: arrived.count)
            return record
        }
        guard request.purpose == .append, page.number == state.list.pages.nextNumber else { return [] }
        state.feed.paging.prefetchPaused = false
        guard !page.items.isEmpty else {
            state.feed.paging.endOfFeed = true
            state.feed.paging.endReason = page.endReason
            endJumpShort(&state)
            let unseen = continueUnseenSearch(&state)
            keepSelectionVisible(&state)
            return unseen
        }
        let before = state.list.index
        let (distinctBefore, listedBefore, hiddenBefore) = (before.distinctCount, before.listed.count, before.hidden.count)
        state.feed.reading.noteListed(page.items)
        state.list.append(LoadedPage(page))
        // A page that added nothing new (every item listed before) is no reason to fetch the next one
        // by itself: only the user's `n` or a move past the end asks again.
        if state.list.index.distinctCount == distinctBefore { state.feed.paging.prefetchPaused = true }
        // The loader knows a page is the last (no next cursor or link, `has_more: false`): never ask past it.
        if page.isLastPage {
            state.feed.paging.endOfFeed = true
            // Said where "end of feed" would be: why it ends here when the page says it is not the end.
            state.feed.paging.endReason = page.endReason
        }
        // A page the rules hid whole shows nothing: when the user waits for something to show (a
        // jump, an empty list), the next one is loaded at once, a few in a row at most.
        let after = state.list.index
        if after.listed.count == listedBefore, after.hidden.count > hiddenBefore {
            if !state.feed.paging.endOfFeed, state.feed.paging.pendingJump != nil || after.rows.isEmpty {
                guard state.feed.paging.hiddenPages >= hiddenPagesInARow else {
                    state.feed.paging.hiddenPages += 1
                    if let jump = state.feed.paging.pendingJump, jump <= page.number { state.feed.paging.pendingJump = page.number + 1 }
                    return record + appendNextPage(&state, explicit: true)
                }
                state.feed.paging.pendingJump = nil
                let keys = state.settings.keymap
                let ways = [keys.keys(for: .nextPage).first.map { "\(KeyMap.label($0)) loads more" },
                            keys.keys(for: .showHidden).first.map { "\(KeyMap.label($0)) shows them" }].compactMap(\.self)
                raise(&state, "the rules hid every item of the last \(hiddenPagesInARow + 1) pages" + (ways.isEmpty ? "" : ": " + ways.joined(separator: ", ")),
                      topic: .hidden)
            }
        } else {
            state.feed.paging.hiddenPages = 0
        }
        if let jump = state.feed.paging.pendingJump {
            if jump > page.number, !state.feed.paging.endOfFeed { return record + appendNextPage(&state, explicit: true) }
            state.feed.paging.pendingJump = nil
            if let row = state.list.firstRow(ofPage: page.number) {
                select(&state, row)
                bringSelectionToTop(&state)
            }
        }
        keepSelectionVisible(&state)
        return record + continueUnseenSearch(&state)
    }

    /// A page painted from its file's record that the index described otherwise: shown as the index
    /// has it, in place; or, when the index does not vouch for the file (another request's answer, a
    /// file it does not name), taken off the screen with the pages after it and asked for from the
    /// network, never from that file again.
    static func correct(_ state: inout AppState, page number: Int, with page: Page?) -> [Effect] {
        guard let k = state.list.pages.position(of: number) else { return [] }
        if let page {
            noteSource(&state, page)
            replace(&state, at: k, with: LoadedPage(page), merging: false)
            return []
        }
        state.list.removePages(from: k)
        state.feed.paging.requests.removeAll { $0.page >= number && $0.purpose == .append }
        state.feed.paging.endOfFeed = false
        state.feed.paging.endReason = nil
        state.feed.paging.pendingJump = nil
        state.list.selection = min(state.list.selection, max(0, state.list.rows.count - 1))
        keepSelectionVisible(&state)
        return send(&state, PageLoad(page: number, policy: .reloadIgnoringCache, purpose: .append))
    }

    /// A page from the network means we are online; a stale one means the network failed and the
    /// cache answered instead, which the user should know, with the page's age.
    static func noteSource(_ state: inout AppState, _ page: Page) {
        noteSource(&state, page.source)
        if page.source == .stale {
            raise(&state, "offline: showing page \(page.number) from \(Timestamp.age(of: page.fetchedAt, now: state.now))")
        }
    }

    /// Whatever the feed answered (a page, an item's comments): from the network, the feed is online
    /// again; a stale copy means the network failed.
    static func noteSource(_ state: inout AppState, _ source: Page.Source) {
        switch source {
        case .network, .revalidated: state.feed.isOffline = false
        case .stale: state.feed.isOffline = true
        case .cache: break
        }
    }

    /// Swaps in a newer copy of a page without moving what is under the cursor: the selected item
    /// stays selected on the same screen line when the list still has it; otherwise the selection
    /// keeps its place: the same row of that page (clamped), or the same item of another page.
    /// - Parameters:
    ///   - merging: keep what the old copy held that no page holds any more (a reload, a watch); else
    ///     the page simply takes the old one's place.
    ///   - refreshed: the pages the same reload already brought.
    static func replace(_ state: inout AppState, at k: Int, with page: LoadedPage, merging: Bool, refreshed: Set<Int> = []) {
        let before = state.list.index
        let selection = state.list.selection
        let selectedIndex = before.rows.indices.contains(selection) ? before.rows[selection] : nil
        let selectedKey = selectedIndex.map { before.keys[$0] }
        let screenLine = before.lineOfRow.indices.contains(selection) ? before.lineOfRow[selection] - state.list.scrollOffset : 0
        let selected = state.list.selectedPage?.number
        let start = selected.flatMap { state.list.firstIndex(ofPage: $0) }
        let offset = (selectedIndex ?? 0) - (start ?? 0)
        if merging {
            state.list.mergePage(at: k, with: page, refreshed: refreshed)
        } else {
            state.list.replacePage(at: k, with: page)
        }
        let after = state.list.index
        if let selectedKey, let row = after.rows.firstIndex(where: { after.keys[$0] == selectedKey }) {
            state.list.selection = row
            state.list.scrollOffset = max(0, after.lineOfRow[row] - screenLine)
            keepSelectionVisible(&state)
            return
        }
        var index = selectedIndex ?? 0
        if let selected, let start = state.list.firstIndex(ofPage: selected) {
            let count = state.list.pages.page(selected)?.items.count ?? 0
            index = start + min(offset, max(0, count - 1))
        }
        state.list.selection = after.rows.firstIndex { $0 >= index } ?? max(0, after.rows.count - 1)
        keepSelectionVisible(&state)
    }

    /// Counts what a reload or a watch brought; when the last page of a reload is answered, or a
    /// watch found something, a toast says it.
    static func tallyReload(_ state: inout AppState, page: Int, purpose: PageLoad.Purpose, arrived: Int) {
        switch purpose {
        case .watch:
            if arrived > 0 { raise(&state, arrived == 1 ? "1 new item" : "\(arrived) new items", topic: .arrivals) }
        case .reload:
            guard var tally = state.feed.paging.reloads, tally.pending.remove(page) != nil else { return }
            tally.arrived += arrived
            tally.answered = true
            tally.refreshed.insert(page)
            state.feed.paging.reloads = tally
            finishReloads(&state)
        case .append:
            break
        }
    }

    /// The toast for reloads that are all answered.
    static func finishReloads(_ state: inout AppState) {
        guard let tally = state.feed.paging.reloads, tally.pending.isEmpty else { return }
        state.feed.paging.reloads = nil
        guard tally.answered else { return }
        raise(&state, tally.arrived == 0 ? "no new items" : tally.arrived == 1 ? "1 new item" : "\(tally.arrived) new items", topic: .arrivals)
    }

    /// A load failed: a toast says so, and the list stays as it was. When it was the next page (or the
    /// first), the end of the list keeps saying why until it is retried.
    static func fail(_ state: inout AppState, page: Int, error: FeedError) -> [Effect] {
        // A failure of a request nobody waits for any more is not news.
        guard let i = state.feed.paging.requests.firstIndex(where: { $0.page == page }) else { return [] }
        let request = state.feed.paging.requests.remove(at: i)
        if error.isOffline { state.feed.isOffline = true }
        // A watch refused for a while (a 429's Retry-After, GitHub's used-up quota) asks again only
        // once the server said it would answer, not every interval until then.
        if request.purpose == .watch, let wait = error.requestError?.waitAsked, var watch = state.feed.watch {
            watch.next = max(watch.next, state.now.addingTimeInterval(wait))
            state.feed.watch = watch
        }
        if request.purpose == .reload, var tally = state.feed.paging.reloads, tally.pending.remove(page) != nil {
            sayReloadFailure(&state, &tally, page: page, reason: "\(error)")
            state.feed.paging.reloads = tally
            finishReloads(&state)
            return []
        }
        if request.purpose == .append {
            endJumpShort(&state)
            state.feed.paging.unseenSearch = nil
            state.feed.paging.prefetchPaused = true
            state.feed.paging.failure = LoadFailure(page: page, reason: "\(error)")
        }
        raise(&state, "page \(page): \(error)")
        return []
    }

    /// A page of a reload failed: one toast per reason names every page of the reload that failed
    /// with it ("pages 1–5: could not connect to ..."), growing in place as more fail, rather than a
    /// toast a page (`R` offline with twenty pages loaded stacked twenty).
    static func sayReloadFailure(_ state: inout AppState, _ tally: inout ReloadTally, page: Int, reason: String) {
        let earlier = tally.failed[reason] ?? []
        tally.failed[reason] = earlier + [page]
        let message = "\(pagesLabel(earlier + [page])): \(reason)"
        let topic = Toast.Topic.reloadFailure(reason)
        // The toast the reload raised for this reason, while it shows, takes the new message and becomes
        // the newest (its clock starts again, after the others'); the log keeps it once.
        if !earlier.isEmpty,
           let i = state.toasts.lastIndex(where: { !$0.isReplaced && $0.topic == topic }), state.toasts[i].isVisible(at: state.now) {
            state.toasts.remove(at: i)
        }
        raise(&state, message, topic: topic)
    }

    /// "page 3", "pages 1–5", "pages 1–3, 7".
    static func pagesLabel(_ pages: [Int]) -> String {
        let sorted = Set(pages).sorted()
        guard sorted.count > 1 else { return "page \(sorted.first ?? 0)" }
        var runs: [String] = []
        var start = sorted[0], end = sorted[0]
        for n in sorted.dropFirst() + [Int.min] {
            if n == end + 1 { end = n; continue }
            runs.append(start == end ? "\(start)" : end == start + 1 ? "\(start), \(end)" : "\(start)–\(end)")
            (start, end) = (n, n)
        }
        return "pages " + runs.joined(separator: ", ")
    }
}
