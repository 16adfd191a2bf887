import Foundation
import RiffleKit

extension App {
    /// Applies `action` to `state` and returns the work to run. Pure: never throws, never waits.
    ///
    /// - Parameters:
    ///   - state: the browser, changed in place.
    ///   - action: what happened.
    /// - Returns: the effects to run, in order.
    package static func update(_ state: inout AppState, _ action: Action) -> [Effect] {
        var effects: [Effect]
        switch action {
        case .start:
            if case .feeds = state.screens.shown {
                effects = [.listFeeds]
            } else {
                effects = state.list.pages.isEmpty ? appendNextPage(&state, explicit: true) : []
            }
        case .tick(let date):
            tick(&state, date)
            effects = watchIfDue(&state)
            state.settle()
            return effects
        case .event(let event):
            effects = handle(&state, event)
        case .pageLoaded(let page):
            effects = receive(&state, page)
            effects += revealIfListed(&state)
        case .pageCorrected(let number, let page):
            effects = correct(&state, page: number, with: page)
        case .pageFailed(let page, let error):
            effects = fail(&state, page: page, error: error)
            effects += revealIfListed(&state)
        case .notice(let message):
            raise(&state, message)
            effects = []
        case .seenLoaded(let keys):
            // Marks made before the log answered are kept.
            state.feed.reading.merge(logged: keys)
            effects = []
        case .savedLoaded(let keys):
            state.feed.reading.merge(saved: keys)
            effects = []
        case .savedListed(let saved):
            SavedScreen.receive(saved, in: &state)
            effects = []
        case .commentsLoaded(let key, let thread):
            noteSource(&state, thread.source)
            effects = CommentsScreen.receive(.success(thread), forItem: key, in: &state)
        case .discussionNoted(let key, let since):
            CommentsScreen.noted(since: since, forItem: key, in: &state)
            effects = []
        case .commentsFailed(let key, let error):
            if error.isOffline { state.feed.isOffline = true }
            effects = CommentsScreen.receive(.failure(error), forItem: key, in: &state)
        case .repliesLoaded(let key, let index, let stub, let replies):
            CommentsScreen.receive(.success(replies), stub: stub, at: index, forItem: key, in: &state)
            effects = []
        case .repliesFailed(let key, let index, let stub, let error):
            CommentsScreen.receive(.failure(error), stub: stub, at: index, forItem: key, in: &state)
            effects = []
        case .searched(let query, let matches, let hidden, let unapplied):
            SearchScreen.receive(matches, hidden: hidden, unapplied: unapplied, failure: nil, forQuery: query, in: &state)
            effects = []
        case .searchFailed(let query, let reason):
            SearchScreen.receive([], failure: reason, forQuery: query, in: &state)
            effects = []
        case .feedsListed(let entries):
            FeedsScreen.receive(entries, in: &state)
            effects = []
        case .feedSummarized(let name, let summary):
            FeedsScreen.receive(summary, of: name, in: &state)
            effects = []
        case .feedsChanged(let message):
            raise(&state, message)
            effects = state.screens.shown(as: FeedsScreen.self) == nil ? [] : [.listFeeds]
        case .fieldsPlanned(let page, let plan, let subtitle):
            receiveFieldPlan(plan, subtitle: subtitle, failure: nil, page: page, in: &state)
            effects = []
        case .fieldsPlanFailed(let page, let reason):
            receiveFieldPlan(nil, subtitle: [], failure: reason, page: page, in: &state)
            effects = []
        case .hideRulesChanged(let rules, let message):
            ListScreen.hideMore(&state, rules: rules, message: message)
            effects = []
        case .fieldsPinned(let message, let pages):
            receivePinnedFields(message, pages: pages, in: &state)
            effects = []
        case .feedRefreshed(let name, let summary):
            FeedsScreen.refreshed(summary, of: name, in: &state)
            effects = []
        case .feedOpened(let title, let hasComments, let hide):
            effects = openedFeed(&state, title: title, hasComments: hasComments, hide: hide)
        }
        if !state.shouldQuit { effects += prefetchIfNeeded(&state) }
        // A request may have added the spinner row, which should be in view at the end of the list.
        keepSelectionVisible(&state)
        state.settle()
        return effects
    }

    static func tick(_ state: inout AppState, _ date: Date) {
        state.now = date
        if !state.feed.paging.requests.isEmpty || state.isWaitingForComments || state.isRefreshingFeeds { state.spinnerFrame &+= 1 }
        // The toasts raised since the last tick are the last ones.
        for i in state.toasts.indices.reversed() {
            guard state.toasts[i].createdAt == nil else { break }
            state.toasts[i].createdAt = date
        }
    }

    /// Adds a message to the toasts (and so to the log, which keeps the newest `Toast.logLimit`). A
    /// toast still on screen with the same message, or on the same `topic`, gives way to it: pressing a
    /// key twice shows its answer once.
    static func raise(_ state: inout AppState, _ message: String, topic: Toast.Topic? = nil) {
        for i in state.toasts.indices.reversed() where !state.toasts[i].isReplaced {
            // Clocks start in order: the toasts before one that expired have expired too.
            guard state.toasts[i].isVisible(at: state.now) else { break }
            if state.toasts[i].message == message || (topic != nil && state.toasts[i].topic == topic) {
                state.toasts[i].isReplaced = true
            }
        }
        state.toasts.append(Toast(message: message, topic: topic))
        if state.toasts.count > Toast.logLimit { state.toasts.removeFirst(state.toasts.count - Toast.logLimit) }
    }

    /// A feed was opened from the feed list or from search results: what was shown of the last one
    /// goes, its pages load, and q comes back to the list (or the results). The settings, the messages
    /// and watching stay. From search results, the item chosen there is looked for in its pages.
    static func openedFeed(_ state: inout AppState, title: String, hasComments: Bool, hide: [HideRule] = []) -> [Effect] {
        var fresh = AppState(feedTitle: title, size: state.size, now: state.now, settings: state.settings)
        fresh.toasts = state.toasts
        fresh.feed.watch = state.feed.watch.map { Watch(interval: $0.interval, next: state.now.addingTimeInterval($0.interval)) }
        fresh.feed.commentsAvailable = hasComments
        fresh.list.setHide(hide)
        switch state.screens.shown {
        case .feeds:
            fresh.screens = ScreenStack([state.screens.shown, .list])
        case .search(var search):
            // The list over the results (over whatever was at the bottom): q goes back to them.
            fresh.feed.reveal = search.opening
            search.opening = nil
            fresh.screens = ScreenStack([state.screens.entries[0], .search(search), .list])
        case .saved(var saved):
            // The same over the saved items: q from the list goes back to them.
            fresh.feed.reveal = saved.opening
            saved.opening = nil
            fresh.screens = ScreenStack([state.screens.entries[0], .saved(saved), .list])
        default:
            break
        }
        state = fresh
        return appendNextPage(&state, explicit: true) + revealKnownItem(&state)
    }
}
