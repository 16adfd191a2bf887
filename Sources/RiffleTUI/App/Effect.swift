import Foundation
import RiffleKit
import RiffleReading

/// Work `App.update` asks the run loop to do; its results come back as `Action`s.
package enum Effect: Sendable, Equatable {
    /// Load a page with `PageLoader`; answer with `.pageLoaded` or `.pageFailed`.
    case load(page: Int, policy: CachePolicy)
    /// Open a link in the user's browser (`o`).
    case open(URL)
    /// Restore the terminal and exit.
    case quit
    /// Record in the reading log that `items` were shown (listed, so search finds them): a page that
    /// arrived and joined the list.
    case record([Item])
    /// Record in the reading log that `items` were seen (or not).
    case mark([Item], seen: Bool)
    /// Save `item` of the open feed for later in the reading log, or forget it (`f`).
    case save(Item, saved: Bool)
    /// Forget the saved item with `key` of the feed whose id is `feedID` (`f` in the saved list).
    case unsave(feedID: String, key: String)
    /// Read every saved item from the reading log; answer with `.savedListed`.
    case listSaved
    /// Revalidate the first page of each feed (several at once, through the cache), then say what is
    /// new in it; answer with a `.feedRefreshed` for each.
    case refreshFeeds([FeedEntry])
    /// Load an item's comments; answer with `.commentsLoaded` or `.commentsFailed`.
    case loadComments(Item, policy: CachePolicy)
    /// Fetch the replies the "more" stub at `index` of `thread` (`item`'s comments) stands for;
    /// answer with `.repliesLoaded` or `.repliesFailed`.
    case expandStub(Item, thread: CommentThread, index: Int)
    /// Note in the reading log a visit to `item`'s discussion whose newest comment was written at
    /// `newest`; answer with `.discussionNoted` (what the visit before saw).
    case noteDiscussion(Item, newest: Date?)
    /// Open an item's discussion page in the browser (`C`), or say the feed names none.
    case openDiscussion(Item)
    /// Put `text` on the clipboard (`y`, `Y`); `what` names it in the toast ("link", "JSON").
    case copy(String, what: String)
    /// Add `rule` to the open feed's `hide` in feeds.json (`x`); answer with `.hideRulesChanged` or a
    /// `.notice` saying why not.
    case addHideRule(HideRule)
    /// Search the reading log, results in `order`; answer with `.searched` or `.searchFailed`.
    case search(String, order: ReadingLog.Order)
    /// List the feeds there are; answer with `.feedsListed`, then a `.feedSummarized` for each.
    case listFeeds
    /// Work out how page `page` is read, with the evidence (the field picker); answer with
    /// `.fieldsPlanned` or `.fieldsPlanFailed`.
    case planFields(page: Int)
    /// Read a part of every item from the path picked (or automatically again), save that in
    /// feeds.json, and read the loaded pages again; answer with `.fieldsPinned` or a `.notice`.
    case pinField(FieldPick)
    /// Rename a feed of the feeds file, or save one opened before by that name (`e` in the feed list);
    /// answer with `.feedsChanged` or a `.notice`.
    case renameFeed(FeedEntry, to: String)
    /// Remove a feed from the feeds file, or forget one opened before (`d`, once confirmed); answer
    /// with `.feedsChanged` or a `.notice`.
    case removeFeed(FeedEntry)
    /// Open a feed by name (`hn`, `reddit:swift`, a URL); answer with `.feedOpened` or a `.notice`.
    case openFeed(String)
}
