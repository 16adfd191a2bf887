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

    package init(unseen: Int?, fetchedAt: Date?) {
        self.unseen = unseen
        self.fetchedAt = fetchedAt
    }
}
