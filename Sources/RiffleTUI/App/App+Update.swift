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
        switch action {
        case .start:
            return request(&state, page: 1, policy: .returnCacheElseLoad)
        case .tick(let date):
            tick(&state, date)
            return []
        case .event(let event):
            return handle(&state, event)
        case .pageLoaded(let page):
            receive(&state, page)
            return []
        case .pageFailed(let page, let message):
            // A failure of a request the user has moved past is not news.
            guard state.loading.page == page else { return [] }
            state.loading = .idle
            raise(&state, "page \(page): \(message)")
            return []
        }
    }

    /// The page the user is heading to: the one in flight, else the one on screen. Pressing `n` twice
    /// quickly means "two pages on", not "the page after the one on screen" twice.
    static func wantedPage(_ state: AppState) -> Int {
        state.loading.page ?? state.pageNumber
    }

    /// Asks for a page. The newest request wins: an older one still in flight is superseded, and its
    /// answer is dropped when it arrives.
    static func request(_ state: inout AppState, page: Int, policy: CachePolicy) -> [Effect] {
        state.loading = .loading(page: page, policy: policy)
        return [.load(page: page, policy: policy)]
    }

    static func receive(_ state: inout AppState, _ page: Page) {
        // Only the answer to the latest request is shown; a superseded page would flash by.
        guard state.loading.page == page.number else { return }
        state.loading = .idle
        let samePage = page.number == state.pageNumber && state.pageInfo != nil
        state.pageNumber = page.number
        state.items = page.items
        state.pageInfo = PageInfo(source: page.source, fetchedAt: page.fetchedAt, status: page.status)
        if samePage {
            state.selection = min(state.selection, max(0, page.items.count - 1))
        } else {
            state.selection = 0
            state.scrollOffset = 0
        }
        keepSelectionVisible(&state)
    }

    static func tick(_ state: inout AppState, _ date: Date) {
        state.now = date
        if state.loading != .idle { state.spinnerFrame &+= 1 }
        for i in state.toasts.indices where state.toasts[i].createdAt == nil {
            state.toasts[i].createdAt = date
        }
    }

    /// Adds a message to the toasts (and so to the log).
    static func raise(_ state: inout AppState, _ message: String) {
        state.toasts.append(Toast(message: message))
    }
}
