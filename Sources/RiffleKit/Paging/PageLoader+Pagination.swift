import Foundation

extension PageLoader {
    /// The URL of page `number`, or nil when the feed ended before it (the previous page gave no next link).
    nonisolated func pageURL(_ number: Int) -> URL? {
        guard feed.pagination.isSequential, number > 1 else { return feed.url(forPage: number, offsetStep: offsetStep(page: number)) }
        return link(number - 1)?.next.flatMap { URL(string: $0) }
    }

    /// Page `number`'s URL and next link: as fetched or read in this run, else from its row in the
    /// index; nil when unknown.
    nonisolated func link(_ number: Int) -> PageLink? {
        if let known = links.withLock({ $0[number] }) { return known }
        return store.metadata(number, in: cache.reader).map { PageLink(url: $0.url, next: $0.next) }
    }

    /// What a page past the end is: empty and last, made without a request so the end is never requested forever.
    nonisolated func endPage(_ number: Int) -> Page {
        Page(number: number, items: [], data: Data("[]".utf8), source: .cache, fetchedAt: .distantPast,
             status: 200, isLastPage: true)
    }

    /// Whether page `number` is the feed's last: it is empty, its body says so (`Pagination.saysLast`),
    /// or a sequential feed's page gave no next URL.
    /// - Parameter known: whether `next` was recorded (metadata present); without it a sequential feed cannot tell.
    /// - Parameter signals: the signals around the item array, when read already.
    nonisolated func isLast(_ number: Int, parsed: ParsedBody, next: String?, known: Bool, signals: EndSignals? = nil) -> Bool {
        if parsed.items.isEmpty || feed.pagination.saysLast(parsed.document, itemsAt: parsed.array, page: number,
                                                            itemCount: parsed.items.count,
                                                            pageSize: countingPageSize(page: number, itemCount: parsed.items.count),
                                                            signals: signals) {
            return true
        }
        return feed.pagination.isSequential && known && next == nil
    }

    /// Whether page `number`'s answer headers say it is the feed's last (`Pagination.headersSayLast`):
    /// WordPress and others say so only there, beside a bare array of items.
    nonisolated func headersSayLast(_ headers: [String: String], page number: Int, itemCount: Int) -> Bool {
        feed.pagination.headersSayLast(headers, page: number, itemCount: itemCount,
                                       pageSize: countingPageSize(page: number, itemCount: itemCount))
    }

    /// The page size by which page `number`, holding `itemCount` items, is placed in the feed (the
    /// items before it, for a `total` reached; the page count): what the feed's requests ask for
    /// (`per_page=30`), or what page 1 held when that was fewer. A server that serves fewer items
    /// than asked (GitHub caps `per_page` at 100) would otherwise have page N stand for items further
    /// on than it holds, and its total reached pages before the end. Counting low costs at most the
    /// request of an empty page after the last; nil when the requests do not say.
    ///
    /// Page 1's count is what the loader remembers of page 1 (`Fingerprints`, noted once per answer
    /// read and per page built), so asking this changes nothing.
    nonisolated func countingPageSize(page number: Int, itemCount: Int) -> Int? {
        pageSize(firstPageHeld: number == 1 ? itemCount : fingerprints.withLock { $0[1]?.itemCount })
    }

    /// What the requests ask for a page, or `held` (page 1's items) when that is fewer and not none.
    nonisolated func pageSize(firstPageHeld held: Int?) -> Int? {
        guard let requested = requestedPageSize else { return nil }
        guard let held, held > 0 else { return requested }
        return min(requested, held)
    }

    /// How many items lie between an offset feed's page `number` and the page before: the page size
    /// `countingPageSize` counts by (the limit, or what page 1 held when that was fewer). A server
    /// that caps the limit (asked for 100, it serves 50) would otherwise have each page start 100
    /// items after the one before, and the 50 between never be shown nor dumped. nil for other
    /// styles, for page 1, and while page 1 is unknown to this run and not on disk (a fetch of page
    /// `number` then loads page 1 first: `fetchInTurn`).
    nonisolated func offsetStep(page number: Int) -> Int? {
        guard case .offset = feed.pagination.style, number > 1, let held = firstPageItems() else { return nil }
        return pageSize(firstPageHeld: held)
    }

    /// How many items page 1 held: as this run read it, else as its file holds it (read once, then
    /// remembered like a page this run read); nil when neither says (or page 1 held none, which says
    /// nothing of a cap).
    nonisolated func firstPageItems() -> Int? {
        if let known = fingerprints.withLock({ $0[1]?.itemCount }) { return known }
        // Building the page remembers it (`remember`).
        guard store.holds(1, in: cache.reader), let stored = storedOnDisk(1),
              let page = try? page(1, stored: stored), !page.items.isEmpty else { return nil }
        return page.items.count
    }

    /// The statuses with which servers refuse a page past the last instead of answering it empty:
    /// Django REST framework, Django's and Flask-SQLAlchemy's paginators and static sites (404),
    /// WordPress (400), APIs that say the range or the page number is invalid (416, 422), or gone (410).
    static let pastTheEndStatuses: Set<Int> = [400, 404, 410, 416, 422]

    /// Whether `failure`, page `number`'s, is where the feed ends rather than an error: a numbered or
    /// offset page past page 1, refused with one of `pastTheEndStatuses`, right after a page that was
    /// short: fewer items than a full page, which is what page 1 held (else the page before the short
    /// one), or what the requests ask for when that is fewer (`countingPageSize`'s rule); for the page
    /// after page 1, what the requests ask for. A short page is where such feeds end; the refusal
    /// only confirms it. Anything else stays an error: page 1 refused, a 5xx, 401 or 403, a refusal
    /// after a full page (nothing said the feed was ending; a dump that exits 0 there could hide lost
    /// items), a page before that is not known, or a cursor or Link feed, whose next URL the server
    /// gave itself.
    func endsAtFailure(_ number: Int, _ failure: FeedError) async -> Bool {
        guard !feed.pagination.isSequential, number > 1, case .request(.httpStatus(let code, _)) = failure,
              Self.pastTheEndStatuses.contains(code), let held = await fingerprint(number - 1)?.itemCount, held > 0 else { return false }
        var earlier: Int?
        if number > 2 {
            if let first = firstPageItems() { earlier = first } else { earlier = await fingerprint(number - 2)?.itemCount }
        }
        guard let full = pageSize(firstPageHeld: earlier) ?? earlier else { return false }
        return held < full
    }

    /// Reloads pages 1 through `count` from the network, one after another, stopping after the last page.
    ///
    /// A cursor feed's page N is reached only through page N-1's fresh answer, so a full reload must start
    /// again from page 1 and go in order; this does that for every style.
    public func reloadAll(through count: Int) async throws(FeedError) -> [Page] {
        var pages: [Page] = []
        for number in 1...max(1, count) {
            let page = try await load(number, policy: .reloadIgnoringCache)
            pages.append(page)
            if page.isLastPage { break }
        }
        return pages
    }
}
