import Foundation
import RiffleKit

extension App {
    /// `w`: watching on (at `Settings.watchInterval`) or off.
    static func toggleWatch(_ state: inout AppState) {
        if state.feed.watch == nil {
            let interval = state.settings.watchInterval
            state.feed.watch = Watch(interval: interval, next: state.now.addingTimeInterval(interval))
            raise(&state, "watching page 1 every \(Watch.label(interval))", topic: .watch)
        } else {
            state.feed.watch = nil
            raise(&state, "stopped watching", topic: .watch)
        }
    }

    /// On a tick: page 1 is revalidated when the watch is due (a 304 when nothing changed) and
    /// nothing else asks for it.
    static func watchIfDue(_ state: inout AppState) -> [Effect] {
        guard var watch = state.feed.watch, state.now >= watch.next else { return [] }
        watch.next = state.now.addingTimeInterval(watch.interval)
        state.feed.watch = watch
        guard state.list.pages.page(1) != nil, !state.feed.paging.requests.contains(where: { $0.page == 1 }) else { return [] }
        return send(&state, PageLoad(page: 1, policy: .returnCacheThenLoad, purpose: .watch))
    }
}
