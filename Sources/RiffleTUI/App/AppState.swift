import Foundation
import RiffleKit

/// Everything the browser shows, as a plain value: `App.update` changes it, `App.view` draws it.
///
/// Four parts and the clock: what the session was started with (`settings`), the open feed
/// (`feed`: its loads and what was seen), its list (`list`: the pages and where the reader is), and
/// the screens over it (`screens`).
///
/// ```swift
/// var state = AppState(feedTitle: "lobste.rs", size: Size(width: 80, height: 24), now: Date())
/// let effects = App.update(&state, .start)   // [.load(page: 1, policy: .returnCacheElseLoad)]
/// let frame = App.view(state)
/// ```
package struct AppState: Sendable, Equatable {
    /// What the configuration and the command line fixed for the session.
    package var settings: Settings
    /// The open feed: its name, loads, seen marks, watch.
    package var feed: FeedState
    /// The open feed's list: its pages, selection, filter and order.
    package var list: ListScreen
    /// The list or the feed list at the bottom, what was opened over it, and overlays on top.
    package var screens: ScreenStack
    /// Every message raised so far, oldest first; the recent ones are drawn as toasts.
    package var toasts: [Toast] = []
    /// The clock, as of the last `.tick`: ages and toast lifetimes are measured from it.
    package var now: Date
    /// The terminal's size in cells.
    package var size: Size
    /// Advances on every tick while loading; the spinner draws `spinnerFrame % frames.count`.
    package var spinnerFrame = 0
    /// Set when the user asked to quit.
    package var shouldQuit = false

    /// A browser on the feed called `feedTitle`, nothing loaded yet; watching from the start when
    /// `settings.watch` says so.
    package init(feedTitle: String, size: Size, now: Date, settings: Settings = Settings()) {
        self.init(bottom: .list, feedTitle: feedTitle, size: size, now: now, settings: settings)
    }

    /// A browser showing the feed list, no feed open yet.
    package static func feedList(size: Size, now: Date, settings: Settings = Settings()) -> AppState {
        AppState(bottom: .feeds(FeedsScreen()), feedTitle: "feeds", size: size, now: now, settings: settings)
    }

    private init(bottom: Screen, feedTitle: String, size: Size, now: Date, settings: Settings) {
        var settings = settings
        feed = FeedState(title: feedTitle)
        if let interval = settings.watch {
            settings.watchInterval = interval
            feed.watch = Watch(interval: interval, next: now.addingTimeInterval(interval))
        }
        self.settings = settings
        list = ListScreen()
        screens = ScreenStack(bottom)
        self.size = size
        self.now = now
    }
}

extension AppState {
    /// The shown screen, as the screen it is: what gets the keys when no overlay is open, and what
    /// is drawn under the overlays.
    var shownContent: any ScreenContent { screens.shown.stacked ?? list }

    /// Brings what is derived up to date with what changed: the list's index and unseen count, and
    /// the shown screen's layout. `App.update` ends with it, so `App.view` finds them made.
    mutating func settle() {
        list.settle(reading: feed.reading)
        if var screen = screens.shown.stacked {
            screen.settle(size: size, now: now)
            screens.shown = screen.screen
        }
    }

    /// Whether everything derived is made for the state as it is (what `settle` leaves), so a frame
    /// and the next key rebuild nothing.
    var isSettled: Bool {
        list.isSettled(feed.reading) && (screens.shown.stacked?.isSettled(size: size, now: now) ?? true)
    }

    /// Whether the item at `index` (in the list's items) was seen; nil while the reading log has not answered.
    package func isSeen(_ index: Int) -> Bool? { feed.reading.isSeen(list.index.keys[index]) }

    /// How many listed items (duplicates once) are unseen; 0 until the reading log has answered.
    package var unseenCount: Int { list.unseenCount(feed.reading) }

    /// True while something on screen moves (the spinner, a toast waiting to fade): the run loop sends
    /// `.tick` about every 80 ms while this holds.
    package var isAnimating: Bool {
        !feed.paging.requests.isEmpty || !visibleToasts.isEmpty || isWaitingForComments || isRefreshingFeeds
    }

    /// Whether the feed list waits for feeds it refreshes (their spinners turn).
    var isRefreshingFeeds: Bool { !(screens.shown(as: FeedsScreen.self)?.refreshing.isEmpty ?? true) }

    /// Whether the comments screen is waiting for its thread (its spinner turns).
    var isWaitingForComments: Bool {
        guard let screen = screens.shown(as: CommentsScreen.self) else { return false }
        return screen.isWaiting || !screen.expanding.isEmpty
    }

    /// The toasts to draw now, oldest first, at most `Toast.maxVisible` (the newest).
    package var visibleToasts: [Toast] {
        var shown: [Toast] = []
        // From the newest back; the toasts before one that expired have expired too (clocks start in order).
        for toast in toasts.reversed() where !toast.isReplaced {
            guard shown.count < Toast.maxVisible, toast.isVisible(at: now) else { break }
            shown.append(toast)
        }
        return shown.reversed()
    }
}
