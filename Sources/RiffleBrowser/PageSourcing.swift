import Foundation
import RiffleKit
import RiffleReading
import RiffleTUI

/// Where the browser's pages come from: what the run loop needs of `PageLoader`.
package protocol PageSourcing: Sendable {
    /// Loads page `number` (1-based) as `policy` says, on the source's own executor.
    func load(_ number: Int, policy: CachePolicy) async throws(FeedError) -> Page
    /// The page as stored, at once and from any thread, or nil: what the first frame is painted
    /// from before anything is fetched.
    func peekCachedPage(_ number: Int) -> Page?
    /// What the index says of the pages `peekCachedPage` returned from their files' own records
    /// since the last call, for each one it describes otherwise (`PageLoader.confirmPeekedPages`).
    /// The loop asks right after each frame, so a page shown without the index is checked against
    /// it before the next key is read.
    func confirmPeekedPages() -> [PeekCorrection]
    /// Whether the feed says where its items' comments are.
    var hasComments: Bool { get }
    /// An item's comments, fetched and cached like the pages; nil when the feed has none.
    func comments(for item: Item, policy: CachePolicy) async throws(FeedError) -> CommentThread?
    /// The replies the "more" stub at `stub` of `thread` stands for, fetched and cached like the
    /// pages (`PageLoader.replies(toStub:in:for:policy:)`).
    func replies(toStub stub: Int, in thread: CommentThread, for item: Item) async throws(FeedError) -> CommentThread.Replies
    /// The page a browser shows for an item's discussion, when the feed names one.
    func discussionPage(for item: Item) -> URL?
    /// The field mapping pages are read with.
    var fields: FieldMapping { get }
    /// Reads pages with `fields` from now on (the field picker's pick, once saved).
    func readFields(with fields: FieldMapping)
    /// How stored page `number` is read, with the evidence; nil when it is not stored.
    func fieldPlan(forPage number: Int) throws(FeedError) -> FieldPlan?
}

extension PageSourcing {
    /// A source that says nothing of comments has none.
    package var hasComments: Bool { false }
    package func comments(for item: Item, policy: CachePolicy) async throws(FeedError) -> CommentThread? { nil }
    package func discussionPage(for item: Item) -> URL? { nil }
    package func replies(toStub stub: Int, in thread: CommentThread, for item: Item) async throws(FeedError) -> CommentThread.Replies {
        throw .request(.validation(path: "comments.expand", expected: "a way to fetch the replies of a \"more\" stub", actual: "nothing"))
    }
    package var fields: FieldMapping { FieldMapping() }
    package func readFields(with fields: FieldMapping) {}
    package func fieldPlan(forPage number: Int) throws(FeedError) -> FieldPlan? { nil }
}

extension PageLoader: PageSourcing {
    package func replies(toStub stub: Int, in thread: CommentThread, for item: Item) async throws(FeedError) -> CommentThread.Replies {
        try await replies(toStub: stub, in: thread, for: item, policy: .returnCacheElseLoad)
    }
}

/// The feeds the browser can list and open: the feed list (`F`).
package protocol FeedShelving: Sendable {
    /// Every feed to list, in order.
    func entries() async -> [FeedEntry]
    /// What is known of `entry`'s stored pages: how many items are unseen, and when they were fetched.
    func summary(of entry: FeedEntry) async -> FeedSummary
    /// Revalidates `entry`'s first page (a conditional request through the cache) and says what is
    /// known of it after: its counts, and how many items of that page were never listed (`arrived`).
    func refresh(_ entry: FeedEntry) async -> FeedSummary
    /// Opens the feed called `name` (with its argument, `reddit:swift`, or a URL template).
    func open(_ name: String) throws(OpenFailure) -> OpenedFeed
    /// Saves `pick` in the feeds file for `feed`, opened as `name` (a feed of the file, a preset, a
    /// URL: then made a feed of the file), and returns the mapping the feed is now read with.
    func pin(_ pick: FieldPick, feed: Feed?, openedAs name: String) throws(OpenFailure) -> PinnedFields
    /// Renames a feed of the feeds file, or saves one opened before under `name`; returns what the
    /// toast says.
    func rename(_ entry: FeedEntry, to name: String) async throws(OpenFailure) -> String
    /// Removes a feed from the feeds file, or from the feeds opened before; returns what the toast says.
    func remove(_ entry: FeedEntry) async throws(OpenFailure) -> String
    /// Adds `rule` to the `hide` of the feeds file's entry for `feed`, opened as `name`; returns the
    /// feed's rules now (the file's own first) and what the toast says.
    func addHideRule(_ rule: HideRule, feed: Feed?, openedAs name: String) throws(OpenFailure) -> (rules: [HideRule], message: String)
    /// Whether the rules of a search match's feed hide it, as that feed's list would, from what the
    /// reading log keeps (`ReadingLog.Match.isHidden(by:)`): the feeds file read once per search.
    func searchHiding() -> SearchHiding
}

/// How the rules of each search match's feed apply in search (`FeedShelving.searchHiding`).
package struct SearchHiding: Sendable {
    /// Whether the rules of the match's feed hide it, from what the reading log keeps.
    package var hides: @Sendable (ReadingLog.Match) -> Bool
    /// The `.PATH:` rules, as written, of the feeds whose matches were looked at so far: they read the
    /// item's JSON, which the reading log does not keep, so they hide nothing in search.
    package var unapplied: @Sendable () -> [String]

    package init(hides: @escaping @Sendable (ReadingLog.Match) -> Bool, unapplied: @escaping @Sendable () -> [String] = { [] }) {
        self.hides = hides
        self.unapplied = unapplied
    }

    /// No rules: nothing hidden.
    package static let none = SearchHiding(hides: { _ in false })
}

extension FeedShelving {
    package func pin(_ pick: FieldPick, feed: Feed?, openedAs name: String) throws(OpenFailure) -> PinnedFields {
        throw OpenFailure("there is no feeds file to save the pick in")
    }

    package func rename(_ entry: FeedEntry, to name: String) async throws(OpenFailure) -> String {
        throw OpenFailure("there is no feeds file to rename '\(entry.name)' in")
    }

    package func remove(_ entry: FeedEntry) async throws(OpenFailure) -> String {
        throw OpenFailure("there is no feeds file to remove '\(entry.name)' from")
    }

    package func addHideRule(_ rule: HideRule, feed: Feed?, openedAs name: String) throws(OpenFailure) -> (rules: [HideRule], message: String) {
        throw OpenFailure("there is no feeds file to keep the rule in")
    }

    /// A shelf without rules hides nothing.
    package func searchHiding() -> SearchHiding { .none }
}

/// A field pick saved in the feeds file.
package struct PinnedFields: Sendable, Equatable {
    /// The mapping the feed is read with now.
    package var fields: FieldMapping
    /// What the toast says: what was picked and where it was saved.
    package var message: String

    package init(fields: FieldMapping, message: String) {
        self.fields = fields
        self.message = message
    }
}

extension FeedShelving {
    /// A shelf that cannot refresh says what it knows from disk.
    package func refresh(_ entry: FeedEntry) async -> FeedSummary { await summary(of: entry) }

    /// Refreshes `entries`, `atOnce` at a time, telling `done` of each as it ends (in the order they end).
    package func refresh(_ entries: [FeedEntry], atOnce: Int, done: @escaping @Sendable (String, FeedSummary) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            var next = entries.makeIterator()
            for _ in 0..<max(1, atOnce) {
                guard let entry = next.next() else { break }
                group.addTask { done(entry.name, await self.refresh(entry)) }
            }
            while await group.next() != nil {
                guard let entry = next.next() else { continue }
                group.addTask { done(entry.name, await self.refresh(entry)) }
            }
        }
    }
}

/// A feed the browser opened.
package struct OpenedFeed: Sendable {
    /// Its pages.
    package var pages: any PageSourcing
    /// What the header calls it.
    package var title: String
    /// Where the reading log files its items; nil to keep no log of it.
    package var reference: ReadingLog.FeedRef?
    /// The feed as it was opened (its URL, its paging), for saving a field pick; nil when not known.
    package var feed: Feed?

    package init(pages: any PageSourcing, title: String, reference: ReadingLog.FeedRef?, feed: Feed? = nil) {
        self.pages = pages
        self.title = title
        self.reference = reference
        self.feed = feed
    }
}

/// Why a feed could not be opened, in one line ("unknown feed 'x'", "feed 'gh': GITHUB_TOKEN is not set").
package struct OpenFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
