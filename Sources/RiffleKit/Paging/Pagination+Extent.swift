extension Pagination {
    /// How many pages and items the whole feed has, when a page says: a page count (`total_pages`,
    /// `pages`, `last_page`, Algolia's `nbPages`...) and a total of items (`total_count`, `nbHits`,
    /// `totalResults`...). With a total and a page size (from the page, the URL or an offset feed's
    /// limit) but no page count, the count is worked out. Read from the same objects as `saysLast`.
    /// - Parameters:
    ///   - document: the page's body.
    ///   - array: the tape index of the item array (`ItemExtractor.list`); nil reads the root only.
    ///   - pageSize: the page size the request asked for, when known (`per_page=30` in the URL).
    public func extent(_ document: JSONDocument, itemsAt array: Int? = nil, pageSize: Int? = nil) -> (pages: Int?, items: Int?) {
        extent(signals: EndSignals(document, around: array), pageSize: pageSize)
    }

    /// `extent` from the signals around the item array, read once for this and `saysLast`.
    func extent(signals: EndSignals, pageSize: Int?) -> (pages: Int?, items: Int?) {
        // A server's numbers are believed only within reason: positive, and below what a page number may be.
        let plausible = 1..<1_000_000_000
        let items = signals.total.flatMap { plausible.contains($0) ? $0 : nil }
        if let count = signals.pageCount, plausible.contains(count) { return (count, items) }
        var size = signals.pageSize ?? pageSize
        if size == nil, case .offset(let limit) = style { size = limit }
        guard let items, let size, plausible.contains(size) else { return (nil, items) }
        return ((items + size - 1) / size, items)
    }
}
