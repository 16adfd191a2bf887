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
            effects = state.pages.isEmpty ? appendNextPage(&state, explicit: true) : []
        case .tick(let date):
            tick(&state, date)
            return []
        case .event(let event):
            effects = handle(&state, event)
        case .pageLoaded(let page):
            effects = receive(&state, page)
        case .pageFailed(let page, let error):
            effects = fail(&state, page: page, error: error)
        case .notice(let message):
            raise(&state, message)
            effects = []
        }
        if !state.shouldQuit { effects += prefetchIfNeeded(&state) }
        // A request may have added the spinner row, which should be in view at the end of the list.
        keepSelectionVisible(&state)
        return effects
    }

    static func tick(_ state: inout AppState, _ date: Date) {
        state.now = date
        if !state.requests.isEmpty { state.spinnerFrame &+= 1 }
        for i in state.toasts.indices where state.toasts[i].createdAt == nil {
            state.toasts[i].createdAt = date
        }
    }

    /// Adds a message to the toasts (and so to the log).
    static func raise(_ state: inout AppState, _ message: String) {
        state.toasts.append(Toast(message: message))
    }
}
