import Foundation
import RiffleKit

extension App {
    /// Remembers which item is selected and since when, so a tick can tell it has stayed a moment.
    static func noteResting(_ state: inout AppState) {
        guard state.mode == .list, let key = state.selectedKey else {
            state.resting = nil
            return
        }
        if state.resting?.key != key { state.resting = Resting(key: key, since: state.now) }
    }

    /// On a tick: the selected item, unseen and selected for `seenAfter`, becomes seen (once the
    /// reading log has said what was seen before).
    static func markRestingItemSeen(_ state: inout AppState) -> [Effect] {
        guard state.seen != nil, let resting = state.resting, state.now.timeIntervalSince(resting.since) >= state.seenAfter,
              let item = state.selectedItem, item.readingKey == resting.key else { return [] }
        return markSeen(&state, [item])
    }

    /// Marks `items` seen (an item opened, or one that stayed selected); nothing for those already seen.
    static func markSeen(_ state: inout AppState, _ items: [Item]) -> [Effect] {
        var seen = state.seen ?? []
        let unseen = items.filter { seen.insert($0.readingKey).inserted }
        guard !unseen.isEmpty else { return [] }
        state.seen = seen
        for item in unseen { state.arrived.remove(item.readingKey) }
        return [.mark(unseen, seen: true)]
    }

    /// `m`: the selected item becomes seen, or unseen again.
    static func toggleSeen(_ state: inout AppState) -> [Effect] {
        guard let item = state.selectedItem else { return [] }
        var seen = state.seen ?? []
        let key = item.readingKey
        if seen.remove(key) != nil {
            state.seen = seen
            // It stays unseen while it stays selected: the moment starts again only when it is left.
            state.resting = Resting(key: key, since: .distantFuture)
            return [.mark([item], seen: false)]
        }
        return markSeen(&state, [item])
    }

    /// `M`: every item loaded becomes seen.
    static func markAllSeen(_ state: inout AppState) -> [Effect] {
        let effects = markSeen(&state, state.listed.map { state.items[$0] })
        raise(&state, effects.isEmpty ? "everything loaded was already seen" : "marked everything loaded seen")
        return effects
    }
}
