import Foundation

/// One page of a feed: its items and where they came from.
public struct Page: Sendable, Equatable {
    /// Where a page's bytes came from: the cache's own answer (`.cache`: its file, with no request;
    /// `.network`; `.revalidated`: its file after a 304; `.stale`: its file past its freshness), one
    /// enum from the cache to the screen.
    public typealias Source = CachedResponse.Source

    /// The page number, 1-based unless the feed says otherwise.
    public var number: Int
    /// The page's items, in the order the server sent them.
    public var items: [Item]
    /// The exact bytes the server sent.
    public var data: Data
    /// Where the page came from: the network, the disk, a revalidation or a stale copy.
    public var source: Source
    /// When these bytes were fetched from the server (not when they were read from disk).
    public var fetchedAt: Date
    /// The HTTP status of the response that produced these bytes.
    public var status: Int
    /// Whether no page follows this one: it is empty, says `has_more: false`, or gave no next cursor or link.
    public var isLastPage: Bool
    /// How many pages the feed has, when the page says (`total_pages`, `nbPages`, a total and a page size).
    public var totalPages: Int?
    /// How many items the feed has, when the page says (`total_count`, `nbHits`...).
    public var totalItems: Int?
    /// Why the feed ends at this page when the page itself does not say so: the server answered it
    /// with the page before it ("the server returned page 1 again: it ignores {page}?") or with an
    /// earlier one ("the server returned page 1 again: its pages go round"), when such a page holds no
    /// items (they were all listed already) and is the last; or a feed paged by links whose page
    /// links to no next page though it counts more ("put {page} in the URL"), a last page with its
    /// items. Nil otherwise.
    public var endReason: String?
    /// Until when the page may be shown without asking the server again, as the cache decided: the
    /// server's `Cache-Control`/`Expires`, else the feed's `maxAge` (or the loader's default). Past
    /// it a stored page is stale. Nil when not known (a page made by hand, the empty page past the end).
    public var freshUntil: Date?

    /// How many characters of the page's text read as U+FFFD because the server sent bytes that were
    /// not text (invalid UTF-8, an escaped surrogate without its pair); the page's items are shown all
    /// the same. Counted from `data` when asked (a pass over the page), never on the way to the screen.
    public var replacedCharacters: Int { (try? JSONDocument(data))?.replacedCharacters ?? 0 }

    /// A page made from its parts (e.g. in a test or a preview); not last, freshness unknown.
    public init(number: Int, items: [Item], data: Data, source: Source, fetchedAt: Date, status: Int) {
        self.init(number: number, items: items, data: data, source: source, fetchedAt: fetchedAt, status: status, isLastPage: false)
    }

    /// A page that knows whether it is the feed's last.
    public init(number: Int, items: [Item], data: Data, source: Source, fetchedAt: Date, status: Int, isLastPage: Bool) {
        self.number = number
        self.items = items
        self.data = data
        self.source = source
        self.fetchedAt = fetchedAt
        self.status = status
        self.isLastPage = isLastPage
    }
}
