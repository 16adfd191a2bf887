import Foundation
import RiffleKit

extension App {
    /// `seen: scroll`: the rows the selection moved down past, from `from` (the row it left) up to
    /// the one it is on now, become seen; those made unseen with `m` stay unseen.
    static func markPassedSeen(_ state: inout AppState, from: Int) -> [Effect] {
        guard state.settings.seen == .scroll, state.feed.reading.seen != nil else { return [] }
        let index = state.list.index
        let to = state.list.selection
        guard from < to, from >= 0, to <= index.rows.count else { return [] }
        let passed = index.rows[from..<to].map { index.items[$0] }
        let unseen = state.feed.reading.markSeen(passed, passing: true)
        return unseen.isEmpty ? [] : [.mark(unseen, seen: true)]
    }

    /// Marks `items` of the open feed seen (an item opened); nothing for those already seen.
    static func markSeen(_ state: inout AppState, _ items: [Item]) -> [Effect] {
        let unseen = state.feed.reading.markSeen(items)
        return unseen.isEmpty ? [] : [.mark(unseen, seen: true)]
    }

    /// `m`: `item` becomes seen, or unseen again; unseen this way, it stays so when moved past, until
    /// it is opened or marked.
    static func toggleSeen(_ state: inout AppState, _ item: Item) -> [Effect] {
        guard state.feed.reading.markUnseen(item.readingKey) else { return markSeen(&state, [item]) }
        return [.mark([item], seen: false)]
    }

    /// `M`: every item loaded becomes seen.
    static func markAllSeen(_ state: inout AppState) -> [Effect] {
        let index = state.list.index
        let effects = markSeen(&state, index.listed.map { index.items[$0] })
        raise(&state, effects.isEmpty ? "everything loaded was already seen" : "marked everything loaded seen")
        return effects
    }

    /// `u`: the next unseen item below the selection, in the list's order, across the loaded pages.
    /// When none is loaded and the feed goes on, the next page is asked for and searched when it
    /// comes (up to `unseenSearchPages` pages a press); at the end of the feed it starts again from
    /// the top.
    static func selectNextUnseen(_ state: inout AppState) -> [Effect] {
        guard let seen = state.feed.reading.seen else {
            raise(&state, "seen marks are still being read")
            return []
        }
        let index = state.list.index
        let from = state.list.selection + 1
        if from < index.rows.count, let row = index.rows[from...].firstIndex(where: { !seen.contains(index.keys[$0]) }) {
            select(&state, row)
            return []
        }
        let paging = state.feed.paging
        if state.list.sort == .feed, !paging.endOfFeed, !state.list.pages.isEmpty {
            state.feed.paging.unseenSearch = UnseenSearch(pagesLeft: unseenSearchPages)
            return appendNextPage(&state, explicit: true)
        }
        return wrapToFirstUnseen(&state)
    }

    /// Pages `u` loads in one press looking for an unseen item.
    static let unseenSearchPages = 5

    /// Nothing unseen below: the first unseen item from the top, or a toast that there is none.
    static func wrapToFirstUnseen(_ state: inout AppState) -> [Effect] {
        let index = state.list.index
        let seen = state.feed.reading.seen ?? []
        if let row = index.rows.indices.first(where: { $0 < state.list.selection && !seen.contains(index.keys[index.rows[$0]]) }) {
            select(&state, row)
            raise(&state, "no unseen items below: back to the first from the top")
        } else {
            raise(&state, "no unseen items loaded")
        }
        return []
    }

    /// A page came while `u` looks for an unseen item: select the first one in it, ask for the next
    /// page while none is found, and say when the search gives up.
    static func continueUnseenSearch(_ state: inout AppState) -> [Effect] {
        guard var search = state.feed.paging.unseenSearch else { return [] }
        state.feed.paging.unseenSearch = nil
        let index = state.list.index, seen = state.feed.reading.seen ?? []
        let from = state.list.selection + 1
        if from < index.rows.count, let row = index.rows[from...].firstIndex(where: { !seen.contains(index.keys[$0]) }) {
            select(&state, row)
            return []
        }
        search.pagesLeft -= 1
        if state.feed.paging.endOfFeed { return wrapToFirstUnseen(&state) }
        guard search.pagesLeft > 0 else {
            raise(&state, "nothing unseen in the next \(unseenSearchPages) pages: u looks further")
            select(&state, index.rows.count - 1)
            return []
        }
        state.feed.paging.unseenSearch = search
        return appendNextPage(&state, explicit: true)
    }

    /// `f`: the item is saved for later (the feed list's "saved" entry lists it offline), or no longer.
    static func toggleSaved(_ state: inout AppState, _ item: Item) -> [Effect] {
        let key = item.readingKey
        let save = !state.feed.reading.isSaved(key)
        state.feed.reading.setSaved(key, save)
        raise(&state, save ? "saved: F lists it under saved" : "no longer saved")
        return [.save(item, saved: save)]
    }
}
