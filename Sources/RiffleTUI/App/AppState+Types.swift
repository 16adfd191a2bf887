import Foundation
import RiffleKit

/// One page in the list.
public struct LoadedPage: Sendable, Equatable {
    /// The page number (1-based).
    public var number: Int
    /// Its items in the order the server sent them.
    public var items: [Item]
    /// Where it came from and when.
    public var info: PageInfo
    /// How many pages and items the feed has, when the page says.
    public var totalPages: Int?
    public var totalItems: Int?

    /// A page of the list.
    public init(number: Int, items: [Item], info: PageInfo) {
        self.number = number
        self.items = items
        self.info = info
    }

    /// The list's page for a loaded `Page`.
    public init(_ page: Page) {
        self.init(number: page.number, items: page.items,
                  info: PageInfo(source: page.source, fetchedAt: page.fetchedAt, status: page.status, freshUntil: page.freshUntil))
        totalPages = page.totalPages
        totalItems = page.totalItems
    }
}

/// Where a page came from, for the status bar.
public struct PageInfo: Sendable, Equatable {
    /// Read from the disk cache or fetched from the network.
    public var source: Page.Source
    /// When the page's bytes were fetched from the server.
    public var fetchedAt: Date
    /// The HTTP status of the response.
    public var status: Int
    /// Until when the page is fresh (`Page.freshUntil`); nil when not known.
    public var freshUntil: Date?

    /// Facts about a page.
    public init(source: Page.Source, fetchedAt: Date, status: Int, freshUntil: Date? = nil) {
        self.source = source
        self.fetchedAt = fetchedAt
        self.status = status
        self.freshUntil = freshUntil
    }
}

/// A page load the browser asked for and is waiting on.
public struct PageRequest: Sendable, Equatable {
    /// What to do with the answer.
    public enum Purpose: Sendable, Equatable {
        /// Add the page after the last one (infinite scroll, `n`).
        case append
        /// Replace a page already in the list (`r`, `R`).
        case reload
        /// Revalidate page 1 on an interval (`--watch`, `w`): what is new is added, nothing moves.
        case watch
    }

    /// The page asked for.
    public var page: Int
    /// How it was asked for.
    public var policy: CachePolicy
    /// What to do with the answer.
    public var purpose: Purpose

    /// A request for `page`.
    public init(page: Int, policy: CachePolicy, purpose: Purpose) {
        self.page = page
        self.policy = policy
        self.purpose = purpose
    }
}

/// A page load that failed and that nothing has replaced since: the list says why, with "r to retry",
/// after the toast has faded.
public struct LoadFailure: Sendable, Equatable {
    /// The page that could not be loaded.
    public var page: Int
    /// Why, in one line.
    public var reason: String

    /// A failure to load `page`.
    public init(page: Int, reason: String) {
        self.page = page
        self.reason = reason
    }

    /// "page 3: HTTP 500 Internal Server Error".
    public var message: String { "page \(page): \(reason)" }
}

/// Whether a page is on its way.
public enum LoadState: Sendable, Equatable {
    /// Nothing is being fetched.
    case idle
    /// `page` was asked for with `policy`.
    case loading(page: Int, policy: CachePolicy)

    /// The page being fetched, if any.
    public var page: Int? {
        if case .loading(let page, _) = self { page } else { nil }
    }
}

/// A short message drawn over the bottom of the list for a few seconds, then kept in the log.
public struct Toast: Sendable, Equatable {
    /// How long a toast stays on screen.
    public static let lifetime: TimeInterval = 3
    /// How many toasts are drawn at once; older ones are hidden (they stay in the log).
    public static let maxVisible = 3

    /// One line; sanitised when drawn.
    public var message: String
    /// When the toast's clock started: the first tick after it was raised. Nil until then, because
    /// `AppState.now` may be stale when a key raises a toast between ticks.
    public var createdAt: Date?

    /// A toast; its clock starts at the next tick unless `createdAt` is given.
    public init(message: String, createdAt: Date? = nil) {
        self.message = message
        self.createdAt = createdAt
    }

    /// Whether the toast is still shown at `now`.
    public func isVisible(at now: Date) -> Bool {
        guard let createdAt else { return true }
        return now.timeIntervalSince(createdAt) < Toast.lifetime
    }
}
