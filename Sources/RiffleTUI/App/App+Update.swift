import Foundation
import RiffleKit

extension App {
    /// Applies `action` to `state` and returns the work to run. Pure: never throws, never waits.
    ///
    /// - Parameters:
    ///   - state: the browser, changed in place.
    ///   - action: what happened.
    /// - Returns: the effects to run, in order.
    public static func update(_ state: inout AppState, _ action: Action) -> [Effect] {
        var effects: [Effect]
        switch action {
        case .start:
            if case .feeds = state.mode {
                effects = [.listFeeds]
            } else {
                effects = state.pages.isEmpty ? appendNextPage(&state, explicit: true) : []
            }
        case .tick(let date):
            tick(&state, date)
            effects = watchIfDue(&state)
            effects += markRestingItemSeen(&state)
            return effects
        case .event(let event):
            effects = handle(&state, event)
        case .pageLoaded(let page):
            effects = receive(&state, page)
        case .pageFailed(let page, let error):
            effects = fail(&state, page: page, error: error)
        case .notice(let message):
            raise(&state, message)
            effects = []
        case .seenLoaded(let keys):
            // Marks made before the log answered are kept.
            state.seen = keys.union(state.seen ?? [])
            effects = []
        case .commentsLoaded(let key, let thread):
            receiveComments(&state, key: key, .success(thread))
            effects = []
        case .commentsFailed(let key, let error):
            receiveComments(&state, key: key, .failure(error))
            effects = []
        case .searched(let query, let matches):
            receiveSearch(&state, query: query, matches: matches)
            effects = []
        case .searchFailed(let query, let reason):
            receiveSearch(&state, query: query, matches: [], failure: reason)
            effects = []
        case .feedsListed(let entries):
            listFeeds(&state, entries)
            effects = []
        case .feedSummarized(let name, let summary):
            summarizeFeed(&state, name: name, summary)
            effects = []
        case .feedOpened(let title, let hasComments):
            effects = openedFeed(&state, title: title, hasComments: hasComments)
        }
        if !state.shouldQuit, state.hasFeed { effects += prefetchIfNeeded(&state) }
        // A request may have added the spinner row, which should be in view at the end of the list.
        keepSelectionVisible(&state)
        noteResting(&state)
        return effects
    }

    static func tick(_ state: inout AppState, _ date: Date) {
        state.now = date
        if !state.requests.isEmpty || state.isWaitingForComments { state.spinnerFrame &+= 1 }
        for i in state.toasts.indices where state.toasts[i].createdAt == nil {
            state.toasts[i].createdAt = date
        }
    }

    /// Adds a message to the toasts (and so to the log).
    static func raise(_ state: inout AppState, _ message: String) {
        state.toasts.append(Toast(message: message))
    }
}
