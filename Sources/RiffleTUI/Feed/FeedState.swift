import Foundation

/// The open feed, whichever screen is shown over its list: its name, its loads, what was seen of it,
/// whether it is watched. Opening another feed starts a new one; the settings stay.
package struct FeedState: Sendable, Equatable {
    /// Shown in the header: the feed's name, else its host.
    package var title: String
    /// Whether the feed says where its items' comments are (`c`, `C`).
    package var commentsAvailable = false
    /// Set when a load (a page, an item's comments) failed for want of a connection; an answer from
    /// the network (a page, comments) clears it.
    package var isOffline = false
    /// What is asked for, what failed, where the feed ends.
    package var paging = Paging()
    /// Seen, new, and the item rested on.
    package var reading = ReadingMarks()
    /// Page 1 revalidated on an interval (`--watch`, `w`); nil when off.
    package var watch: Watch?
    /// An item from search results being looked for in its pages, to open it; nil when none.
    package var reveal: Reveal?

    /// A feed called `title`, nothing loaded.
    package init(title: String) { self.title = title }
}
