extension Pagination {
    /// Whether a page's body says it is the feed's last, by what real APIs put beside their items:
    ///
    /// - the feed's `hasMorePath`, when set and the page has a boolean there;
    /// - a more-flag that is false (`has_more`, `hasMore`, `has_next`, `hasNextPage`, `more`...) or
    ///   a last-flag that is true (`is_last`, `isLast`, `last`);
    /// - a next link or cursor that is present and empty (`"next": null`, `next_page`, `next_cursor: ""`...);
    /// - a page count reached: `page >= total_pages` (`pages`, `totalPages`, `last_page`...; Algolia's
    ///   `nbPages` counts from 0, so its last page is `nbPages - 1`), or page N of N without an
    ///   echoed page number;
    /// - a total reached: the items before this page (an echoed `offset`/`startAt`, else the page size
    ///   times the pages before) plus this page's items reach `total` (`total_count`, `totalResults`...).
    ///
    /// Only the objects on the way from the root to the item array are read, with their paging
    /// objects (`meta`, `pagination`, `pageInfo`, `response_metadata`, `links`...) and the paging
    /// objects inside those (`meta.pagination`, `pagination.urls`), never the items.
    /// An empty page is the end too, but that is `PageLoader`'s to see.
    /// - Parameters:
    ///   - document: the page's body.
    ///   - array: the tape index of the item array (`ItemExtractor.list`); nil reads the root only.
    ///   - number: Riffle's page number (1-based).
    ///   - itemCount: the items on this page.
    ///   - pageSize: the page size the request asked for, when known (`per_page=30` in the URL).
    public func saysLast(_ document: JSONDocument, itemsAt array: Int? = nil, page number: Int, itemCount: Int,
                         pageSize: Int? = nil) -> Bool {
        saysLast(document, itemsAt: array, page: number, itemCount: itemCount, pageSize: pageSize, signals: nil)
    }

    /// `saysLast`, with the signals around `array` when the caller read them already (for `extent` too).
    func saysLast(_ document: JSONDocument, itemsAt array: Int?, page number: Int, itemCount: Int, pageSize: Int?,
                  signals read: EndSignals?) -> Bool {
        if let hasMorePath, let flag = document.scalar(at: JSONPath(hasMorePath))?.boolValue { return !flag }
        let signals = read ?? EndSignals(document, around: array)
        if let more = signals.more { return !more }
        if let last = signals.last { return last }
        if signals.nextMissing { return true }
        return countSaysLast(signals, page: number, itemCount: itemCount, pageSize: pageSize)
    }

    /// Whether a page count or a total of items says page `number`, holding `itemCount` items, is
    /// the feed's last: `count`'s page count reached (by the echoed page number, else Riffle's), else
    /// its total reached by the items before this page (an echoed offset; an offset feed's own, by
    /// `pageSize` else its limit; else the pages before times the echoed page size, else `pageSize`)
    /// plus this page's. The one arithmetic for what bodies (`saysLast`) and headers
    /// (`headersSayLast`) say.
    ///
    /// The numbers are a server's: one that is negative, or a product or sum past `Int`, says nothing
    /// (false), so garbage never ends a feed early; the worst it costs is the request of an empty
    /// page after the last. A count or total of 0 is the end.
    func countSaysLast(_ count: EndSignals, page number: Int, itemCount: Int, pageSize: Int?) -> Bool {
        let first: Int
        if case .pageNumber(let firstPage) = style { first = firstPage } else { first = 1 }
        if let pages = count.pageCount, pages >= 0 {
            guard pages > 0 else { return true }
            guard let page = count.page else { return number >= pages }
            // `pages > 0` here, so `pages - 1` cannot overflow.
            return count.zeroBased || first == 0 ? page >= pages - 1 : page >= pages
        }
        guard let total = count.total, total >= 0 else { return false }
        guard total > 0 else { return true }
        var before = count.offset
        if before == nil, case .offset(let limit) = style { before = Self.product(number - 1, pageSize ?? limit) }
        if before == nil, let size = count.pageSize ?? pageSize, size > 0 {
            // Pages before this one: the echoed page counted from the feed's first, else Riffle's.
            // A server's page number may be anything an `Int` holds: subtracted without trapping.
            let index = count.page.map { $0.subtractingReportingOverflow(count.zeroBased ? 0 : first) }
                .map { $0.overflow ? 0 : $0.partialValue } ?? number - 1
            before = Self.product(max(0, index), size)
        }
        guard let before, before >= 0 else { return false }
        let (seen, overflow) = before.addingReportingOverflow(itemCount)
        return !overflow && seen >= total
    }

    /// `a * b`, or nil when it does not fit (a server's numbers never trap).
    private static func product(_ a: Int, _ b: Int) -> Int? {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : result
    }
}

extension Pagination {
    /// Whether a page's response headers say it is the feed's last, as WordPress, GitLab, Yii and
    /// json-server say it beside a bare array (WordPress answers the page after the last with 400):
    /// a page count (`X-WP-TotalPages`, `X-Total-Pages`, `X-Pagination-Page-Count`) that page
    /// `number` reaches, or a total of items (`X-WP-Total`, `X-Total-Count`, `X-Total`,
    /// `X-Pagination-Total-Count`) that the pages before it and its `itemCount` items reach, by the
    /// page size the headers echo (`X-Per-Page`), else `pageSize`. `headers` named in lower case,
    /// as `HTTPResponse` keeps them.
    func headersSayLast(_ headers: [String: String], page number: Int, itemCount: Int, pageSize: Int?) -> Bool {
        countSaysLast(EndSignals(headers: headers), page: number, itemCount: itemCount, pageSize: pageSize)
    }
}

/// What a page says about where it stands in the feed, read from its body's tape (see
/// `Pagination.saysLast`) or from its headers (`init(headers:)`, for `Pagination.headersSayLast`).
struct EndSignals: Equatable {
    var more: Bool?
    var last: Bool?
    var nextMissing = false
    /// The next page's URL as the body gives it (`"next": "https://…?page=3"`, `links.next`,
    /// `@odata.nextLink`, HAL's `_links.next.href`): an http(s) URL or a reference from the server's
    /// root or the page's path (`/api/items?page=3`, `?page=3`), as written. A cursor token is not one.
    var nextLink: String?
    var page: Int?
    var pageCount: Int?
    /// The page count is Algolia's `nbPages`, whose `page` counts from 0.
    var zeroBased = false
    var total: Int?
    var pageSize: Int?
    var offset: Int?
    /// What was read and where, in words (`has_more: false`), when asked for (`riffle inspect`); nil
    /// otherwise, so reading a page's signals stays free of strings.
    var notes: [String]?

    private enum Meaning: CaseIterable {
        case more, last, next, page, pageCount, zeroBasedPageCount, total, pageSize, offset, container
    }

    /// Key → meaning; an immutable constant, built once.
    private static let meanings: [(key: String, meaning: Meaning)] = [
        ("has_more", .more), ("hasMore", .more), ("has_next", .more), ("hasNext", .more), ("hasNextPage", .more),
        ("has_next_page", .more), ("more", .more), ("has_more_items", .more),
        ("is_last", .last), ("isLast", .last), ("last", .last), ("isLastPage", .last), ("is_last_page", .last),
        ("next", .next), ("next_page", .next), ("nextPage", .next), ("next_page_url", .next), ("nextPageUrl", .next),
        ("next_url", .next), ("nextUrl", .next), ("next_cursor", .next), ("nextCursor", .next), ("next_href", .next),
        ("nextLink", .next), ("@odata.nextLink", .next), ("nextPageToken", .next), ("next_page_token", .next),
        ("after", .next),
        ("page", .page), ("current_page", .page), ("currentPage", .page), ("page_number", .page), ("pageNumber", .page),
        ("total_pages", .pageCount), ("totalPages", .pageCount), ("pages", .pageCount), ("page_count", .pageCount),
        ("pageCount", .pageCount), ("num_pages", .pageCount), ("numPages", .pageCount), ("last_page", .pageCount),
        ("lastPage", .pageCount), ("nbPages", .zeroBasedPageCount),
        ("total", .total), ("total_count", .total), ("totalCount", .total), ("total_results", .total),
        ("totalResults", .total), ("total_items", .total), ("totalItems", .total), ("totalElements", .total),
        ("total_entries", .total), ("nbHits", .total),
        ("per_page", .pageSize), ("perPage", .pageSize), ("page_size", .pageSize), ("pageSize", .pageSize),
        ("limit", .pageSize), ("hitsPerPage", .pageSize), ("resultsPerPage", .pageSize), ("maxResults", .pageSize),
        ("pagelen", .pageSize), ("items_per_page", .pageSize), ("itemsPerPage", .pageSize),
        ("offset", .offset), ("start", .offset), ("startAt", .offset), ("start_index", .offset), ("startIndex", .offset),
        ("from", .offset), ("skip", .offset),
        ("meta", .container), ("pagination", .container), ("paging", .container), ("pageInfo", .container),
        ("page_info", .container), ("links", .container), ("_links", .container), ("response_metadata", .container),
        ("metadata", .container), ("_metadata", .container), ("search_metadata", .container), ("cursor", .container),
        ("cursors", .container), ("urls", .container),
    ]
    private static let table = KeyTable(meanings.map(\.key))

    private init() {}

    /// What response headers say of the feed's size: a page count (`X-WP-TotalPages`,
    /// `X-Total-Pages`, `X-Pagination-Page-Count`), a total of items (`X-WP-Total`, `X-Total-Count`,
    /// `X-Total`, `X-Pagination-Total-Count`) and the page size (`X-Per-Page`,
    /// `X-Pagination-Per-Page`); `headers` named in lower case, as `HTTPResponse` keeps them.
    init(headers: [String: String]) {
        func value(_ names: [String]) -> Int? {
            names.lazy.compactMap { headers[$0].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }.first
        }
        self.init()
        pageCount = value(["x-wp-totalpages", "x-total-pages", "x-pagination-page-count"])
        total = value(["x-wp-total", "x-total-count", "x-total", "x-pagination-total-count"])
        pageSize = value(["x-per-page", "x-pagination-per-page"])
    }

    init(_ document: JSONDocument, around array: Int?, noting: Bool = false) {
        self = document.withReader { (r: TapeReader) -> EndSignals in
            Self.table.withMatcher { (matcher: KeyMatcher) -> EndSignals in
                var signals = EndSignals()
                if noting { signals.notes = [] }
                guard r.kind(0) == .object else { return signals }
                // The objects from the root down to the item array's parent.
                var way = [0]
                if let array {
                    var current = 0
                    while current != array {
                        var next: Int?
                        r.forEachMember(of: current) { _, v in
                            if next == nil, v <= array, array < r.after(v) { next = v }
                        }
                        guard let found = next, found != array, r.kind(found) == .object else { break }
                        way.append(found)
                        current = found
                    }
                }
                /// `page` is a container too when it is an object (Spring's `page.totalPages`).
                func isContainer(_ k: Int, _ v: Int) -> Bool {
                    guard r.kind(v) == .object, let n = matcher.number(ofKeyAt: k, r) else { return false }
                    return Self.meanings[n].meaning == .container || Self.meanings[n].meaning == .page
                }
                for object in way {
                    signals.read(object, r, matcher)
                    r.forEachMember(of: object) { k, v in
                        guard isContainer(k, v) else { return }
                        signals.read(v, r, matcher)
                        // One level further: Discogs' `pagination.urls.next`, Paddle's `meta.pagination.next`.
                        r.forEachMember(of: v) { k, inner in if isContainer(k, inner) { signals.read(inner, r, matcher) } }
                    }
                }
                return signals
            }
        }
    }

    /// Records what the members of the object at `i` say; the first value found for each meaning wins.
    private mutating func read(_ i: Int, _ r: TapeReader, _ matcher: KeyMatcher) {
        r.forEachMember(of: i) { k, v in
            guard let n = matcher.number(ofKeyAt: k, r) else { return }
            let kind = r.kind(v)
            if notes != nil, Self.meanings[n].meaning != .container, kind != .object, kind != .array {
                let value = kind == .null ? "null" : r.scalarText(v).map { kind == .string ? "\"\($0.prefix(60))\"" : $0 } ?? ""
                notes?.append("\(r.path(to: v).joined(separator: ".")): \(value)")
            }
            switch Self.meanings[n].meaning {
            case .more: if more == nil, kind == .true || kind == .false { more = kind == .true }
            case .last where kind == .true || kind == .false: if last == nil { last = kind == .true }
            case .last: break
            case .next:
                // Present and empty: `null`, `""` or `false`. A missing key says nothing.
                if kind == .null || kind == .false || (kind == .string && r.tape[v].end == r.tape[v].start &+ 1) {
                    nextMissing = true
                } else if nextLink == nil {
                    nextLink = Self.link(v, r)
                }
            case .page: if page == nil { page = Self.integer(v, r) }
            case .pageCount:
                // Laravel's `last_page` is a number; elsewhere `lastPage` may be a flag.
                if kind == .true || kind == .false { if last == nil { last = kind == .true } } else if pageCount == nil {
                    pageCount = Self.integer(v, r)
                }
            case .zeroBasedPageCount:
                if pageCount == nil, let count = Self.integer(v, r) { pageCount = count; zeroBased = true }
            case .total: if total == nil { total = Self.integer(v, r) }
            case .pageSize: if pageSize == nil { pageSize = Self.integer(v, r) }
            case .offset: if offset == nil { offset = Self.integer(v, r) }
            case .container: break
            }
        }
    }

    /// The string at `v`, or at its `href` member (HAL), when it reads as a link to a page rather
    /// than a cursor: it starts with `http://`, `https://`, `/` or `?`.
    private static func link(_ v: Int, _ r: TapeReader) -> String? {
        var at = v
        if r.kind(v) == .object {
            var href: Int?
            r.forEachMember(of: v) { k, member in if href == nil, r.string(k) == "href" { href = member } }
            guard let href else { return nil }
            at = href
        }
        guard r.kind(at) == .string else { return nil }
        let text = r.string(at)
        guard let first = text.utf8.first else { return nil }
        if first == UInt8(ascii: "/") || first == UInt8(ascii: "?") { return text }
        let scheme = text.utf8.prefix(8).map { $0 | 0x20 }
        return scheme.starts(with: "https://".utf8) || scheme.starts(with: "http://".utf8) ? text : nil
    }

    /// A whole number, written as a number or as text (`"page": "2"`); nil for anything else.
    private static func integer(_ v: Int, _ r: TapeReader) -> Int? {
        switch r.kind(v) {
        case .number: Int(r.numberText(v))
        case .string: Int(r.string(v))
        default: nil
        }
    }
}
