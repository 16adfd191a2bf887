import Foundation
import RiffleKit

/// Everything the browser shows, as a plain value: `App.update` changes it, `App.view` draws it.
///
/// ```swift
/// var state = AppState(feedTitle: "lobste.rs", size: Size(width: 80, height: 24), now: Date())
/// let effects = App.update(&state, .start)   // [.load(page: 1, policy: .returnCacheElseLoad)]
/// let frame = App.view(state)
/// ```
public struct AppState: Sendable, Equatable {
    /// Shown in the header: the feed's name, else its host.
    public var feedTitle: String
    /// The page on screen (1-based).
    public var pageNumber: Int = 1
    /// The items of the page on screen.
    public var items: [Item] = []
    /// Where the page on screen came from; nil until a page has arrived.
    public var pageInfo: PageInfo?
    /// The highlighted row, an index into `items`.
    public var selection: Int = 0
    /// The index of the first item drawn in the list.
    public var scrollOffset: Int = 0
    /// Whether a page is being fetched. The page on screen stays while one is.
    public var loading: LoadState = .idle
    /// Advances on every tick while loading; the spinner draws `spinnerFrame % frames.count`.
    public var spinnerFrame: Int = 0
    /// Every message raised so far, oldest first; the recent ones are drawn as toasts.
    public var toasts: [Toast] = []
    /// The clock, as of the last `.tick`: ages and toast lifetimes are measured from it.
    public var now: Date
    /// The terminal's size in cells.
    public var size: Size
    /// Set when the user asked to quit.
    public var shouldQuit: Bool = false

    /// A fresh browser with nothing loaded.
    public init(feedTitle: String, size: Size, now: Date) {
        self.feedTitle = feedTitle
        self.size = size
        self.now = now
    }

    /// True while something on screen moves (the spinner, a toast waiting to fade): the run loop sends
    /// `.tick` about every 80 ms while this holds.
    public var isAnimating: Bool {
        loading != .idle || !visibleToasts.isEmpty
    }

    /// The toasts to draw now, oldest first, at most `Toast.maxVisible`.
    public var visibleToasts: [Toast] {
        Array(toasts.filter { $0.isVisible(at: now) }.suffix(Toast.maxVisible))
    }
}

/// Where the page on screen came from, for the status bar.
public struct PageInfo: Sendable, Equatable {
    /// Read from the disk cache or fetched from the network.
    public var source: Page.Source
    /// When the page's bytes were fetched from the server.
    public var fetchedAt: Date
    /// The HTTP status of the response.
    public var status: Int

    public init(source: Page.Source, fetchedAt: Date, status: Int) {
        self.source = source
        self.fetchedAt = fetchedAt
        self.status = status
    }
}

/// Whether a page is on its way.
public enum LoadState: Sendable, Equatable {
    /// Nothing is being fetched.
    case idle
    /// `page` was asked for with `policy`; only its answer will be shown (a newer request supersedes an older one).
    case loading(page: Int, policy: CachePolicy)

    /// The page being fetched, if any.
    public var page: Int? {
        if case .loading(let page, _) = self { page } else { nil }
    }
}

/// A short message drawn over the bottom of the list for a few seconds.
public struct Toast: Sendable, Equatable {
    /// How long a toast stays on screen.
    public static let lifetime: TimeInterval = 3
    /// How many toasts are drawn at once; older ones are hidden (they stay in the log).
    public static let maxVisible = 3

    public var message: String
    /// When the toast's clock started: the first tick after it was raised. Nil until then, because
    /// `AppState.now` may be stale when a key raises a toast between ticks.
    public var createdAt: Date?

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
