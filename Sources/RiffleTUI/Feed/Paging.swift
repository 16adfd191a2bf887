import Foundation
import RiffleKit

/// The open feed's loads: what is asked for, what failed, where the feed ends. The pages themselves
/// are the list's (`ListScreen.pages`).
package struct Paging: Sendable, Equatable {
    /// Loads in flight, oldest first. Only answers to these are used; anything else is stale.
    package var requests: [PageLoad] = []
    /// The page whose first item to select when it arrives (after `n` or moving past the end).
    /// A later jump or an explicit move supersedes it.
    package var pendingJump: Int?
    /// The load of the page after the last one that failed, until it is asked for again or arrives.
    package var failure: LoadFailure?
    /// Set when a background load failed, so moving does not retry it on every key press; an
    /// explicit request or a loaded page clears it.
    package var prefetchPaused = false
    /// Set when a page came back empty, or said it was the last: there is nothing after the last
    /// loaded page.
    package var endOfFeed = false
    /// Why the feed ended, when riffle ended it rather than the feed (`Page.endReason`: the server
    /// returned the page before again); shown where "end of feed" would be.
    package var endReason: String?
    /// Reloads asked for together (`r`, `R`) and what they brought so far, for one toast at the end.
    package var reloads: ReloadTally?
    /// `u` found nothing unseen below the selection and waits for the next page to look in it.
    package var unseenSearch: UnseenSearch?
    /// Pages in a row whose items the rules all hid, each loaded at once for want of anything to
    /// show (`App.hiddenPagesInARow` at most, then the user's `n` goes on).
    package var hiddenPages = 0

    package init() {}

    /// Whether the next page is being fetched (a spinner row shows at the bottom of the list).
    package var isAppending: Bool { requests.contains { $0.purpose == .append } }

    /// The oldest load in flight, as the status bar reports it.
    package var loading: LoadState {
        requests.first.map { .loading(page: $0.page, policy: $0.policy) } ?? .idle
    }
}

/// A page load the browser asked for and is waiting on.
package struct PageLoad: Sendable, Equatable {
    /// What to do with the answer.
    package enum Purpose: Sendable, Equatable {
        /// Add the page after the last one (infinite scroll, `n`).
        case append
        /// Replace a page already in the list (`r`, `R`).
        case reload
        /// Revalidate page 1 on an interval (`--watch`, `w`): what is new is added, nothing moves.
        case watch
    }

    /// The page asked for.
    package var page: Int
    /// How it was asked for.
    package var policy: CachePolicy
    /// What to do with the answer.
    package var purpose: Purpose

    /// A load of `page`.
    package init(page: Int, policy: CachePolicy, purpose: Purpose) {
        self.page = page
        self.policy = policy
        self.purpose = purpose
    }
}

/// A page load that failed and that nothing has replaced since: the list says why, with "r to retry",
/// after the toast has faded.
package struct LoadFailure: Sendable, Equatable {
    /// The page that could not be loaded.
    package var page: Int
    /// Why, in one line.
    package var reason: String

    /// A failure to load `page`.
    package init(page: Int, reason: String) {
        self.page = page
        self.reason = reason
    }

    /// "page 3: HTTP 500 Internal Server Error".
    package var message: String { "page \(page): \(reason)" }
}

/// Whether a page is on its way.
package enum LoadState: Sendable, Equatable {
    /// Nothing is being fetched.
    case idle
    /// `page` was asked for with `policy`.
    case loading(page: Int, policy: CachePolicy)

    /// The page being fetched, if any.
    package var page: Int? {
        if case .loading(let page, _) = self { page } else { nil }
    }
}

/// Reloads asked for together, for one toast when the last one is answered.
package struct ReloadTally: Sendable, Equatable {
    /// Pages still to answer.
    package var pending: Set<Int>
    /// Items that were not listed before, so far.
    package var arrived = 0
    /// Whether any page came back (a failure has its own toast).
    package var answered = false
    /// The pages that came back so far: newer than anything an earlier page of the reload moves on.
    package var refreshed: Set<Int> = []
    /// The pages that failed so far, by the reason they failed with: one toast says each reason once.
    package var failed: [String: [Int]] = [:]

    package init(pending: Set<Int>) { self.pending = pending }
}

/// `u` looking for an unseen item in pages still to come.
package struct UnseenSearch: Sendable, Equatable {
    /// Pages it may still load before it gives up (and says so).
    package var pagesLeft: Int

    package init(pagesLeft: Int) { self.pagesLeft = pagesLeft }
}
