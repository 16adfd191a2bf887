import Foundation
import RiffleKit

/// What fills the screen between the header and the status bar.
public enum Mode: Sendable, Equatable {
    /// The list of items.
    case list
    /// One item's fields (Enter); Esc or q returns to the list at the same place.
    case detail(DetailState)
    /// One item's comments as a tree (`c`).
    case comments(CommentsState)
    /// The feeds there are, with what is unseen in each (`F`).
    case feeds(FeedListState)
    /// What a search of everything seen found (`S`).
    case search(SearchState)
}

/// The comments screen of one item.
public struct CommentsState: Sendable, Equatable {
    /// The item whose discussion this is.
    public var item: Item
    /// The thread; nil while it loads.
    public var thread: CommentThread?
    /// Why it could not be loaded.
    public var failure: String?
    /// Comments (indices into `thread.comments`) whose replies are folded away.
    public var folded: Set<Int> = []
    /// The selected comment (an index into `thread.comments`, always a shown one).
    public var selection = 0
    /// The first line drawn.
    public var scroll = 0

    /// The comments of `item`, loading.
    public init(item: Item) { self.item = item }

    /// The comments shown, in order: all but the replies of folded ones.
    public var shown: [Int] {
        guard let comments = thread?.comments else { return [] }
        var result: [Int] = []
        result.reserveCapacity(comments.count)
        var index = 0
        while index < comments.count {
            result.append(index)
            index += folded.contains(index) ? comments[index].descendants + 1 : 1
        }
        return result
    }
}

/// The detail screen of one item.
public struct DetailState: Sendable, Equatable {
    /// The item shown (a copy, so a reload of its page does not change it under the reader).
    public var item: Item
    /// The first line drawn.
    public var scroll: Int = 0
    /// Whether the item is shown as pretty-printed JSON rather than as fields.
    public var showsRawJSON = false

    /// Shows `item` from its first line, as fields.
    public init(item: Item) { self.item = item }
}

/// A box drawn over the screen; the keys go to it while it is open.
public enum Overlay: Sendable, Equatable {
    /// Every key and what it does (`?`), from binding `scroll` on. When it does not fit the screen
    /// j, k and the arrows scroll it; any other key closes it.
    case help(scroll: Int)
    /// Every message raised so far (`L`); Esc closes it.
    case log
}

/// The `/` filter over the loaded items.
public struct FilterState: Sendable, Equatable {
    /// The text to find (case-insensitively) in titles and details.
    public var query: String
    /// True while the user types it; Enter keeps it and returns to moving.
    public var isEditing: Bool

    /// A filter; new ones start empty and being typed.
    public init(query: String = "", isEditing: Bool = true) {
        self.query = query
        self.isEditing = isEditing
    }

    /// Whether `item`'s title or details contain `query`, ignoring case (any script: CJK, accents...).
    public static func matches(_ item: Item, query: String) -> Bool {
        item.title.range(of: query, options: [.caseInsensitive]) != nil
            || item.details.contains { $0.range(of: query, options: [.caseInsensitive]) != nil }
    }
}
