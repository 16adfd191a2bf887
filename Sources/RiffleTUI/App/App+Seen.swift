import Foundation
import RiffleKit

extension App {
    /// Remembers which item of the list is selected and since when, so a tick can tell it has stayed
    /// a moment. Only while the list is the screen shown.
    static func noteResting(_ state: inout AppState) {
        guard state.screens.shown == .list, let key = state.list.selectedKey else {
            state.feed.reading.resting = nil
            return
        }
        if state.feed.reading.resting?.key != key { state.feed.reading.resting = Resting(key: key, since: state.now) }
    }

    /// On a tick: the selected item, unseen and selected for `Settings.seenAfter`, becomes seen (once the
    /// reading log has said what was seen before).
    static func markRestingItemSeen(_ state: inout AppState) -> [Effect] {
        let reading = state.feed.reading
        guard reading.seen != nil, let resting = reading.resting, state.now.timeIntervalSince(resting.since) >= state.settings.seenAfter,
              let item = state.list.selectedItem, item.readingKey == resting.key else { return [] }
        return markSeen(&state, [item])
    }

    /// Marks `items` of the open feed seen (an item opened, or one that stayed selected); nothing for
    /// those already seen.
    static func markSeen(_ state: inout AppState, _ items: [Item]) -> [Effect] {
        let unseen = state.feed.reading.markSeen(items)
        return unseen.isEmpty ? [] : [.mark(unseen, seen: true)]
    }

    /// `m`: `item` becomes seen, or unseen again.
    static func toggleSeen(_ state: inout AppState, _ item: Item) -> [Effect] {
        let key = item.readingKey
        guard state.feed.reading.markUnseen(key) else { return markSeen(&state, [item]) }
        // It stays unseen while it stays selected: the moment starts again only when it is left.
        state.feed.reading.resting = Resting(key: key, since: .distantFuture)
        return [.mark([item], seen: false)]
    }

    /// `M`: every item loaded becomes seen.
    static func markAllSeen(_ state: inout AppState) -> [Effect] {
        let index = state.list.index
        let effects = markSeen(&state, index.listed.map { index.items[$0] })
        raise(&state, effects.isEmpty ? "everything loaded was already seen" : "marked everything loaded seen", topic: .marks)
        return effects
    }
}
