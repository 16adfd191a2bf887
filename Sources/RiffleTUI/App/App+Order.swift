import Foundation
import RiffleKit

extension App {
    /// `s`: the next order (feed, newest, score), the selected item still selected.
    static func changeSort(_ state: inout AppState) {
        let next = state.sort.next
        refilter(&state) { $0.sort = next }
        raise(&state, next.label.map { "sorted: \($0)" } ?? "in feed order")
    }

    /// `w`: watching on (at `watchInterval`) or off.
    static func toggleWatch(_ state: inout AppState) {
        if state.watch == nil {
            state.watch = Watch(interval: state.watchInterval, next: state.now.addingTimeInterval(state.watchInterval))
            raise(&state, "watching page 1 every \(Watch.label(state.watchInterval))")
        } else {
            state.watch = nil
            raise(&state, "stopped watching")
        }
    }

    /// On a tick: page 1 is revalidated when the watch is due (a 304 when nothing changed) and
    /// nothing else asks for it.
    static func watchIfDue(_ state: inout AppState) -> [Effect] {
        guard var watch = state.watch, state.now >= watch.next else { return [] }
        watch.next = state.now.addingTimeInterval(watch.interval)
        state.watch = watch
        guard state.hasFeed, state.pages.contains(where: { $0.number == 1 }),
              !state.requests.contains(where: { $0.page == 1 }) else { return [] }
        return send(&state, PageRequest(page: 1, policy: .returnCacheThenLoad, purpose: .watch))
    }
}
