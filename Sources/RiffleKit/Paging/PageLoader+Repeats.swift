import Foundation

/// A server that ignores how the next page is asked for (a static file, a mistyped parameter name)
/// answers every page with the first one, and a reader that trusts it pages without end: 956 requests
/// in 30 seconds for a browser, a dump that never stops. A page that repeats the page before it ends
/// the feed instead, saying why; so does one that repeats an earlier page this run read (a cursor
/// or next link that leads back, a page past the end answered with the first), whose pages would
/// otherwise go round for ever.
extension PageLoader {
    /// What a page's answer was, to tell when the next one is the same: its body and its items' keys.
    struct Fingerprint: Sendable, Equatable {
        /// The body's bytes, every one of them hashed (compared within this process only); nil when
        /// the items' keys tell already. (`Data`'s own hash reads only its length and first 80 bytes.)
        var body: Int?
        /// Each item's id or link in order; nil when an item has neither, and only the body can tell.
        var keys: [String]?
        /// How many items the page held (whether it was a full page: `endsAtFailure`).
        var itemCount: Int
        /// Whether the page said it was the feed's last.
        var isLast: Bool
        /// When the answer was fetched (for a page read from the cache, when it was stored).
        var fetchedAt: Date

        /// Answers fetched further apart than this are never taken for one another. A feed that
        /// moves on while its reader reads (30 new stories by the afternoon) serves as page 2 what
        /// page 1 held in the morning, item for item; a server that ignores `{page}`, or pages that
        /// lead back, repeat within the minute of an automatic reader, and a person paging by hand
        /// past the bound sees one page twice before the next one ends the feed.
        static let sameTime: TimeInterval = 10 * 60

        init(_ page: Page) {
            self.init(body: page.data, items: page.items, isLast: page.isLastPage, fetchedAt: page.fetchedAt)
        }

        /// Hashing the whole body takes ~26 µs for 84 KB, so it is done only where the keys cannot
        /// stand for it: the same body gives the same ids and links (a link that is a path is
        /// resolved against the page's URL, whose origin the pages of one feed share).
        init(body data: Data, items: [Item], isLast: Bool, fetchedAt: Date) {
            self.isLast = isLast
            self.fetchedAt = fetchedAt
            itemCount = items.count
            var keys: [String] = []
            keys.reserveCapacity(items.count)
            // By index: reading two fields of `items[i]` in place, where `for item in items` copied
            // every item whole (a dozen retains and releases each).
            for i in items.indices {
                if let id = items[i].id, !id.isEmpty { keys.append("id:" + id) } else if let url = items[i].url, !url.isEmpty {
                    keys.append("link:" + url)
                } else {
                    self.keys = nil
                    body = Self.hash(data)
                    return
                }
            }
            self.keys = keys
            body = !keys.isEmpty ? nil : Self.hash(data)
        }

        private static func hash(_ data: Data) -> Int {
            var hasher = Hasher()
            data.withUnsafeBytes { hasher.combine(bytes: $0) }
            return hasher.finalize()
        }

        /// Whether this page is `previous` again: the same body, or the same items (same ids or links,
        /// in the same order) with something else changed around them (a timestamp, a request id),
        /// fetched within `sameTime` of each other.
        func repeats(_ previous: Fingerprint) -> Bool {
            guard abs(fetchedAt.timeIntervalSince(previous.fetchedAt)) <= Self.sameTime else { return false }
            return (body != nil && body == previous.body) || (keys.map { !$0.isEmpty && $0 == previous.keys } ?? false)
        }
    }

    /// Notes what page `number` held, for the page after it.
    nonisolated func remember(_ page: Page) {
        guard !page.items.isEmpty else { return }
        fingerprints.withLock { $0[page.number] = Fingerprint(page) }
    }

    /// A fetched page's answer, read before it is stored: remembered for the page after it (so
    /// asking for that one reads nothing back from disk), and told to `Configuration.answered` when
    /// it settles whether another page follows.
    nonisolated func noteAnswer(_ number: Int, parsed: ParsedBody, body: Data) {
        // A chained feed's next URL may be in the headers, read once the page is loaded.
        guard !feed.pagination.isSequential, let more = follows(number, parsed: parsed, body: body, remember: true) else { return }
        configuration.answered(number, more)
    }

    /// Whether another page follows page `number`, whose answer `body` read as `parsed`: not when it
    /// is the last or repeats the page before; nil while the page before is unknown. With `remember`,
    /// the page is noted for the page after it.
    nonisolated func follows(_ number: Int, parsed: ParsedBody, body: Data, remember: Bool = false) -> Bool? {
        let last = isLast(number, parsed: parsed, next: nil, known: false)
        let answer = Fingerprint(body: body, items: parsed.items, isLast: last, fetchedAt: clock())
        let previous = fingerprints.withLock { known in
            if remember && !parsed.items.isEmpty { known[number] = answer }
            return known[number - 1]
        }
        // Whether it repeats the page before is unknown until that page is.
        guard last || number == 1 || previous != nil else { return nil }
        return !last && repeated(answer, at: number, previous: previous) == nil
    }

    /// The page before `number` whose answer `answer` repeats: the one just before (`previous`),
    /// else the first earlier one this run read or fetched; nil when it repeats none.
    nonisolated func repeated(_ answer: Fingerprint, at number: Int, previous: Fingerprint?) -> Int? {
        if let previous, answer.repeats(previous) { return number - 1 }
        guard number > 2 else { return nil }
        return fingerprints.withLock { $0.first(repeatedBy: answer, before: number - 1) }
    }

    /// What each page held as last read or fetched, by page number, with the pages found by what
    /// they held, so that a page is compared with the earlier pages it may repeat, not with every one
    /// (a dump of thousands of pages).
    struct Fingerprints {
        private var pages: [Int: Fingerprint] = [:]
        /// The pages each body hash and each first key were seen on (a page read again with other
        /// items stays listed under what it held before: `first` checks what it holds now).
        private var byBody: [Int: Set<Int>] = [:]
        private var byFirstKey: [String: Set<Int>] = [:]

        subscript(number: Int) -> Fingerprint? {
            get { pages[number] }
            set {
                pages[number] = newValue
                if let body = newValue?.body { byBody[body, default: []].insert(number) }
                if let key = newValue?.keys?.first { byFirstKey[key, default: []].insert(number) }
            }
        }

        /// The first page before page `limit` whose answer `answer` repeats, if any.
        func first(repeatedBy answer: Fingerprint, before limit: Int) -> Int? {
            let candidates = (answer.body.flatMap { byBody[$0] } ?? []).union(answer.keys?.first.flatMap { byFirstKey[$0] } ?? [])
            return candidates.filter { $0 < limit && pages[$0].map(answer.repeats) ?? false }.min()
        }
    }

    /// `page`, or, when it repeats the page before it, that page ended: no items (they were all listed
    /// already), the feed's last, and `endReason` saying why.
    func endingRepeat(_ page: Page) async -> Page {
        guard page.number > 1, !page.items.isEmpty else { return page }
        let previous = await fingerprint(page.number - 1)
        return previous.map { ending(page, ifItRepeats: $0) } ?? page
    }

    /// `endingRepeat` at once, from any thread: what is known of the page before, or its file.
    nonisolated func endingRepeatNow(_ page: Page) -> Page {
        guard page.number > 1, !page.items.isEmpty else { return page }
        let previous = fingerprints.withLock { $0[page.number - 1] }
            ?? storedOnDisk(page.number - 1).flatMap { try? self.page(page.number - 1, stored: $0) }.map(Fingerprint.init)
        return previous.map { ending(page, ifItRepeats: $0) } ?? page
    }

    private nonisolated func ending(_ page: Page, ifItRepeats previous: Fingerprint) -> Page {
        guard let repeated = repeated(Fingerprint(page), at: page.number, previous: previous) else { return page }
        var ended = page
        ended.items = []
        ended.isLastPage = true
        ended.endReason = repeatReason(repeated, before: page.number)
        return ended
    }

    /// Whether the feed ends at page `number`: it said it was the last, or it repeats the page before.
    /// Known from what this run fetched or read, without reading back a page it has just stored;
    /// else from its file.
    func endsFeed(_ number: Int) async -> Bool {
        let (page, previous) = fingerprints.withLock { ($0[number], $0[number - 1]) }
        if let page, page.isLast || number == 1 || previous != nil {
            return page.isLast || repeated(page, at: number, previous: previous) != nil
        }
        return await cachedPage(number)?.isLastPage ?? false
    }

    /// What page `number` held: as remembered, else its fetch in flight (a dump asks for several
    /// pages at once, and the later one may arrive first), else its file.
    func fingerprint(_ number: Int) async -> Fingerprint? {
        if let known = fingerprints.withLock({ $0[number] }) { return known }
        if let flight = inFlight[number], let page = try? await flight.value { return Fingerprint(page) }
        return await rawCachedPage(number).map(Fingerprint.init)
    }

    /// "the server returned page 1 again: it ignores {page}?", worded for the feed's pagination;
    /// for an earlier page than the one before page `number`, "its pages go round".
    nonisolated func repeatReason(_ previous: Int, before number: Int) -> String {
        guard previous == number - 1 else { return "the server returned page \(previous) again: its pages go round" }
        let guess = switch feed.pagination.style {
        case .pageNumber: "it ignores \(Feed.pagePlaceholder)?"
        case .offset: "it ignores {offset}?"
        case .cursor(_, let parameter): "it ignores the '\(parameter)' parameter?"
        case .linkHeader: "its next link leads back?"
        }
        return "the server returned page \(previous) again: \(guess)"
    }
}
