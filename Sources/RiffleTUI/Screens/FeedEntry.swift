import Foundation

/// One feed in the feed list.
package struct FeedEntry: Sendable, Equatable, Hashable {
    /// Where the list found it.
    package enum Origin: Sendable, Hashable {
        /// The user's feeds file.
        case feedsFile
        /// A preset.
        case preset
        /// Opened before (a preset with its argument, a URL).
        case recent
        /// The built-in demo.
        case demo
        /// The items saved with `f` (`FeedEntry.saved`), listed from the reading log: no feed.
        case saved
    }

    /// How it is opened: `hn`, `github:apple/swift`, a URL template; `reddit` for a feed that
    /// still needs its argument.
    package var name: String
    /// One line saying what it is.
    package var description: String
    /// What its argument is (`SUBREDDIT`) when one must be typed before opening it.
    package var argument: String?
    package var origin: Origin

    /// Whether `R` refreshes it when its summary is `summary`: a feed of the feeds file, one opened
    /// before, or any other with pages on disk (a preset read before); never one that still needs its
    /// argument, the demo (its server runs only while it is open) or the saved items.
    package func isRefreshable(_ summary: FeedSummary?) -> Bool {
        guard argument == nil else { return false }
        switch origin {
        case .feedsFile, .recent: return true
        case .preset: return summary?.fetchedAt != nil
        case .demo, .saved: return false
        }
    }

    /// The feed list's first entry: the items saved with `f`, from every feed, offline.
    package static let saved = FeedEntry(name: "saved", description: "items saved with f, from every feed (offline)", origin: .saved)

    package init(name: String, description: String, argument: String? = nil, origin: Origin) {
        self.name = name
        self.description = description
        self.argument = argument
        self.origin = origin
    }
}

/// What the feed list knows of a feed's stored pages.
package struct FeedSummary: Sendable, Equatable {
    /// Items on the stored pages not seen yet; nil when it has no stored pages.
    package var unseen: Int?
    /// When its first page was last fetched; nil when never.
    package var fetchedAt: Date?
    /// After a refresh (`R`, `r` in the feed list): how many items of the fetched first page were
    /// never listed (their ids are not in the reading log); nil when not refreshed.
    package var arrived: Int?
    /// Why the refresh failed, in one line; nil when it did not.
    package var failure: String?

    package init(unseen: Int?, fetchedAt: Date?, arrived: Int? = nil, failure: String? = nil) {
        self.unseen = unseen
        self.fetchedAt = fetchedAt
        self.arrived = arrived
        self.failure = failure
    }
}
