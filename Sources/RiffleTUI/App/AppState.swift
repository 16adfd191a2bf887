import Foundation
import RiffleKit

/// Everything the browser shows, as a plain value: `App.update` changes it, `App.view` draws it.
///
/// The list holds every loaded page in order (infinite scroll); `selection` indexes `rows`, the
/// items the filter lets through.
///
/// ```swift
/// var state = AppState(feedTitle: "lobste.rs", size: Size(width: 80, height: 24), now: Date())
/// let effects = App.update(&state, .start)   // [.load(page: 1, policy: .returnCacheElseLoad)]
/// let frame = App.view(state)
/// ```
public struct AppState: Sendable, Equatable {
    /// Shown in the header: the feed's name, else its host.
    public var feedTitle: String
    /// The loaded pages, consecutive and in order.
    public var pages: [LoadedPage] = [] {
        didSet { reindex() }
    }
    /// Every loaded item, page after page. Kept with `rows` on every change of `pages` or `filter`,
    /// since the view and most keys need them and a feed can hold thousands of items.
    public private(set) var items: [Item] = []
    /// The list's rows: indices into `items` of the items listed (each once) that match the filter,
    /// in the order of `sort`.
    public private(set) var rows: [Int] = []
    /// Indices into `items` of every item listed, in feed order: all but the duplicates.
    public private(set) var listed: [Int] = []
    /// What the list draws, top to bottom: the rows, with a "page N" boundary before the first row of
    /// each page after the first one shown.
    public private(set) var lines: [ListView.Line] = []
    /// The index in `lines` of each row.
    public private(set) var lineOfRow: [Int] = []
    /// Set when a page came back empty: there is nothing after the last loaded page.
    public var endOfFeed = false
    /// Why the feed ended, when riffle ended it rather than the feed (`Page.endReason`: the server
    /// returned the page before again); shown where "end of feed" would be.
    public var endReason: String?
    /// The highlighted row, an index into `rows` (the items the filter lets through).
    public var selection: Int = 0
    /// The index in `lines` of the first line drawn in the list.
    public var scrollOffset: Int = 0
    /// Requests in flight, oldest first. Only answers to these are used; anything else is stale.
    public var requests: [PageRequest] = []
    /// The page whose first item to select when it arrives (after `n` or moving past the end).
    /// A later jump or an explicit move supersedes it.
    public var pendingJump: Int?
    /// The load of the page after the last one that failed, until it is asked for again or arrives.
    public var failure: LoadFailure?
    /// Set when a background load failed, so moving does not retry it on every key press; an
    /// explicit request or a loaded page clears it.
    public var prefetchPaused = false
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
    /// The list, or one item's detail.
    public var mode: Mode = .list
    /// The help or log box, when one is open.
    public var overlay: Overlay?
    /// The `/` filter, while typed or kept.
    public var filter: FilterState? {
        didSet { if filter?.query != oldValue?.query { reindex() } }
    }
    /// Set when a load failed for want of a connection; a page from the network clears it.
    public var isOffline = false
    /// A cached page that does not know its own freshness (`PageInfo.freshUntil`) shows as "stale"
    /// in the status bar when older than this.
    public var staleAfter: TimeInterval = 3600
    /// The keys of the feed's items that were seen, as the reading log says; nil until it answered
    /// (items are then drawn as before, neither seen nor unseen).
    public var seen: Set<String>? {
        didSet { if seen != oldValue { unseenCount = countUnseen() } }
    }
    /// Items that came with a reload or a watch and were not listed before: drawn with "new" until seen.
    public var arrived: Set<String> = []
    /// The selected item and since when it has been selected: it counts as seen after `seenAfter`.
    public var resting: Resting?
    /// How long an item stays selected before it counts as seen.
    public var seenAfter: TimeInterval = 1.5
    /// The order of the list (`s`).
    public var sort: SortOrder = .feed {
        didSet { if sort != oldValue { reindex() } }
    }
    /// Page 1 revalidated on an interval (`--watch`, `w`); nil when off.
    public var watch: Watch?
    /// The interval `w` turns watching on with.
    public var watchInterval: TimeInterval = 300
    /// What each key does.
    public var keymap: KeyMap = .standard
    /// Seen items carry a glyph, for screens without colours (`NO_COLOR`, the mono theme) where dim
    /// may not show.
    public var marksWithGlyphs = false
    /// Where Esc and q go back to, last first (the list under an item, the feed list under a feed).
    public var back: [Mode] = []
    /// A line being typed at the bottom (search words, a feed's argument).
    public var prompt: Prompt?
    /// Reloads asked for together (`r`, `R`) and what they brought so far, for one toast at the end.
    public var reloads: ReloadTally?
    /// Whether a feed is open; false while only the feed list has been shown.
    public var hasFeed = true
    /// Whether the open feed says where its items' comments are (`c`, `C`).
    public var commentsAvailable = false
    /// `Item.readingKey` of each item in `items`.
    public private(set) var keys: [String] = []
    /// How many listed items (duplicates once) are unseen; 0 until `seen` is known.
    public private(set) var unseenCount = 0

    /// A fresh browser with nothing loaded.
    public init(feedTitle: String, size: Size, now: Date) {
        self.feedTitle = feedTitle
        self.size = size
        self.now = now
    }
}

extension AppState {
    private mutating func reindex() {
        items = pages.flatMap(\.items)
        keys = items.map(\.readingKey)
        // An item listed on an earlier page (same id or link) is listed once, where it came first.
        var ids = Set<String>(), links = Set<String>()
        var unique: [Int] = []
        unique.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let newID = item.id.map { $0.isEmpty || ids.insert($0).inserted } ?? true
            let newLink = item.url.map { $0.isEmpty || links.insert($0).inserted } ?? true
            if newID && newLink { unique.append(index) }
        }
        listed = unique
        unseenCount = countUnseen()
        if let query = filter?.query, !query.isEmpty {
            rows = unique.filter { FilterState.matches(items[$0], query: query) }
        } else {
            rows = unique
        }
        lines = []
        lineOfRow = []
        guard sort == .feed else {
            rows = sort.sorted(rows, items)
            lineOfRow = Array(rows.indices)
            lines = rows.indices.map { .item(row: $0) }
            return
        }
        lines.reserveCapacity(rows.count + pages.count)
        lineOfRow.reserveCapacity(rows.count)
        var page = pages.startIndex
        var pageEnd = pages.first?.items.count ?? 0
        var lastPageShown: Int?
        for (row, index) in rows.enumerated() {
            while index >= pageEnd, page + 1 < pages.endIndex {
                page += 1
                pageEnd += pages[page].items.count
            }
            if let lastPageShown, lastPageShown != page { lines.append(.pageBoundary(pages[page].number)) }
            lastPageShown = page
            lineOfRow.append(lines.count)
            lines.append(.item(row: row))
        }
    }

    private func countUnseen() -> Int {
        guard let seen else { return 0 }
        return listed.reduce(0) { $0 + (seen.contains(keys[$1]) ? 0 : 1) }
    }

    /// Whether a non-empty filter hides some items.
    public var isFiltering: Bool { !(filter?.query.isEmpty ?? true) }

    /// The index in `items` of the highlighted item.
    public var selectedIndex: Int? {
        rows.indices.contains(selection) ? rows[selection] : nil
    }

    /// The highlighted item, if any.
    public var selectedItem: Item? { selectedIndex.map { items[$0] } }

    /// The highlighted item's `readingKey`, if any.
    public var selectedKey: String? { selectedIndex.map { keys[$0] } }

    /// Whether the item at `index` (in `items`) was seen; nil while the reading log has not answered.
    public func isSeen(_ index: Int) -> Bool? { seen.map { $0.contains(keys[index]) } }

    /// The page the selected item belongs to (the status bar's "page N"); 1 before anything loaded.
    public var pageNumber: Int { selectedPage?.number ?? pages.first?.number ?? 1 }

    /// Where the selected item's page came from; nil until a page has arrived.
    public var pageInfo: PageInfo? { (selectedPage ?? pages.first)?.info }

    /// The page holding the selected item.
    public var selectedPage: LoadedPage? { selectedIndex.flatMap { page(containing: $0) } }

    /// The first row showing an item of page `number`; nil when none does (not loaded, or filtered out).
    public func firstRow(ofPage number: Int) -> Int? {
        guard let start = firstIndex(ofPage: number),
              let count = pages.first(where: { $0.number == number })?.items.count else { return nil }
        return rows.firstIndex { $0 >= start && $0 < start + count }
    }

    /// The page holding item `index`.
    public func page(containing index: Int) -> LoadedPage? {
        var start = 0
        for page in pages {
            if index >= start && index < start + page.items.count { return page }
            start += page.items.count
        }
        return nil
    }

    /// The index in `items` of page `number`'s first item; nil when that page is not loaded.
    public func firstIndex(ofPage number: Int) -> Int? {
        var start = 0
        for page in pages {
            if page.number == number { return start }
            start += page.items.count
        }
        return nil
    }

    /// The number of the page an append would load.
    public var nextPageNumber: Int { (pages.last?.number ?? 0) + 1 }

    /// Whether the next page is being fetched (a spinner row shows at the bottom of the list).
    public var isAppending: Bool { requests.contains { $0.purpose == .append } }

    /// The oldest request in flight, as the status bar reports it.
    public var loading: LoadState {
        requests.first.map { .loading(page: $0.page, policy: $0.policy) } ?? .idle
    }

    /// True while something on screen moves (the spinner, a toast waiting to fade): the run loop sends
    /// `.tick` about every 80 ms while this holds.
    public var isAnimating: Bool { !requests.isEmpty || !visibleToasts.isEmpty || isWaitingForComments }

    /// Whether the comments screen is waiting for its thread (its spinner turns).
    var isWaitingForComments: Bool {
        if case .comments(let comments) = mode, comments.thread == nil, comments.failure == nil { return true }
        return false
    }

    /// The toasts to draw now, oldest first, at most `Toast.maxVisible`.
    public var visibleToasts: [Toast] {
        Array(toasts.filter { $0.isVisible(at: now) }.suffix(Toast.maxVisible))
    }
}
