import Foundation
import RiffleKit
import RiffleReading

/// Something that happened: the input of `App.update`.
package enum Action: Sendable, Equatable {
    /// The initial load; the run loop sends it once, first.
    case start
    /// A key, mouse or resize event from the terminal.
    case event(TerminalEvent)
    /// The clock moved; sent about every 80 ms while `AppState.isAnimating`.
    case tick(Date)
    /// A `.load` effect finished.
    case pageLoaded(Page)
    /// A page shown from its file's own record was checked against the cache's index right after
    /// the frame, and the index describes it otherwise: `page` is the page as the index has it, nil
    /// when the index does not vouch for the file at all (the page leaves the screen and is asked
    /// for from the network).
    case pageCorrected(number: Int, page: Page?)
    /// A `.load` effect failed; the toast shows the error's one-line description.
    case pageFailed(page: Int, error: FeedError)
    /// Something worth a toast that is not about a page (e.g. no program to open links with).
    case notice(String)
    /// The reading log's seen items of the open feed (`Item.readingKey`s).
    case seenLoaded(Set<String>)
    /// The reading log's saved items of the open feed (`Item.readingKey`s).
    case savedLoaded(Set<String>)
    /// A `.listSaved` effect finished: every saved item, the last saved first.
    case savedListed([ReadingLog.SavedItem])
    /// A `.loadComments` effect finished: the thread of the item whose `readingKey` is `item`.
    case commentsLoaded(item: String, CommentThread)
    /// A `.loadComments` effect failed.
    case commentsFailed(item: String, FeedError)
    /// An `.expandStub` effect finished: the replies the stub `stub` (index `index` in the thread of
    /// the item whose `readingKey` is `item`) stood for.
    case repliesLoaded(item: String, index: Int, stub: CommentThread.Comment, CommentThread.Replies)
    /// An `.expandStub` effect failed; the stub stays.
    case repliesFailed(item: String, index: Int, stub: CommentThread.Comment, FeedError)
    /// A `.noteDiscussion` effect was answered: the newest comment's time at the visit before; nil
    /// on a first visit (nothing is new then).
    case discussionNoted(item: String, since: Date?)
    /// A `.search` effect finished; `hidden`: the places of the matches the rules of their feeds hide.
    case searched(query: String, [ReadingLog.Match], hidden: Set<Int> = [], unapplied: [String] = [])
    /// A `.search` effect failed, saying why in one line.
    case searchFailed(query: String, String)
    /// The feeds to list (`.listFeeds`).
    case feedsListed([FeedEntry])
    /// What is known of one listed feed's stored pages.
    case feedSummarized(name: String, FeedSummary)
    /// A `.renameFeed` or `.removeFeed` effect changed the feeds; `message` says how.
    case feedsChanged(String)
    /// A `.planFields` effect worked out how page `page` is read, and the subtitle's paths the feed names.
    case fieldsPlanned(page: Int, FieldPlan, subtitle: [JSONPath])
    /// A `.planFields` effect could not, saying why in one line.
    case fieldsPlanFailed(page: Int, String)
    /// An `.addHideRule` effect saved the rule: the open feed's rules now, and what the toast says.
    case hideRulesChanged([HideRule], message: String)
    /// A `.pinField` effect saved the pick (`message` says where) and read the loaded pages with it.
    case fieldsPinned(message: String, pages: [Page])
    /// One feed of a `.refreshFeeds` effect was refreshed (or failed: `FeedSummary.failure`).
    case feedRefreshed(name: String, FeedSummary)
    /// An `.openFeed` effect opened a feed: its title, whether it says where comments are, and the
    /// rules that hide some of its items.
    case feedOpened(title: String, hasComments: Bool, hide: [HideRule] = [])
}
