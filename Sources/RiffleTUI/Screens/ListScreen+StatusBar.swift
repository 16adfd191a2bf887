import Foundation
import RiffleKit

extension ListScreen {
    /// Feed, page of the selection, item count, where that page came from and its age. When space is
    /// short the feed name goes first (the header has it), then the item count.
    func statusBar(_ state: AppState) -> StatusBar {
        let activity = state.feed.paging.loading.page.map { "loading page \($0)" }
        if pages.isEmpty {
            // Nothing listed: what became of the first page, not counts of nothing ("0 items · nothing new").
            var facts = [state.feed.title]
            if let failure = state.feed.paging.failure, activity == nil {
                facts.append("page \(failure.page) failed")
            } else if state.feed.paging.endOfFeed {
                facts.append("no items")
            }
            return StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: [0])
        }
        var facts = [state.feed.title, position(), pagePosition()]
        // Facts that may come after the page's, most expendable last in `dropOrder`.
        var optional: [String] = []
        if state.feed.reading.seen != nil {
            let unseen = unseenCount(state.feed.reading)
            optional.append(unseen == 0 ? "nothing new" : "\(unseen) new")
        }
        let hidden = index.hidden.count
        if hidden > 0 { optional.append(showsHidden ? "\(hidden) hidden shown" : "\(hidden) hidden") }
        if let label = sort.label { optional.append(label) }
        if let watch = state.feed.watch { optional.append("watch \(watch.label)") }
        facts += optional
        if let info = pageInfo {
            facts.append(sourceLabel(info, state: state))
            facts.append("fetched \(Timestamp.age(of: info.fetchedAt, now: state.now))")
        }
        // Short of space: the feed's name (the header has it), the optional facts, then the item's place.
        var dropOrder = [0] + (3..<3 + optional.count).reversed() + [1]
        if let query = filter?.query, isFiltering {
            facts.insert("/\(query)", at: 0)
            dropOrder = dropOrder.map { $0 + 1 }
        }
        return StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: dropOrder)
    }

    /// "item 12/90": the selection among the items listed (the feed's total when it says and no
    /// filter hides any; "of 90" after the matches when one does).
    func position() -> String {
        let index = index
        let listed = index.listed.count
        guard !index.rows.isEmpty else { return listed == 0 ? "0 items" : "0 of \(listed) items" }
        let place = min(selection + 1, index.rows.count)
        if isFiltering { return "item \(place)/\(index.rows.count) of \(listed)" }
        // The feed's total counts what the rules hide: the count listed says what can be reached.
        if !index.hidden.isEmpty { return "item \(place)/\(listed)" }
        let total = pages.last?.totalItems.map { max($0, listed) } ?? listed
        return "item \(place)/\(total)"
    }

    /// "page 2 of 9" when the feed says how many pages it has, else "page 2".
    func pagePosition() -> String {
        let total = selectedPage?.totalPages ?? pages.last?.totalPages
        guard let total, total >= pageNumber else { return "page \(pageNumber)" }
        return "page \(pageNumber) of \(total)"
    }

    /// "offline" after a connection failure, else "network" (also for a page the server confirmed
    /// unchanged), "stale" for a page the cache could not revalidate or past its own freshness
    /// (`PageInfo.freshUntil`; without one, older than `Settings.staleAfter`), else "cache".
    func sourceLabel(_ info: PageInfo, state: AppState) -> String {
        if state.feed.isOffline { return "offline" }
        switch info.source {
        case .network, .revalidated: return "network"
        case .stale: return "stale"
        case .cache:
            let stale = info.freshUntil.map { state.now >= $0 } ?? (state.now.timeIntervalSince(info.fetchedAt) > state.settings.staleAfter)
            return stale ? "stale" : "cache"
        }
    }
}
