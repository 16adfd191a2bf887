import RiffleKit

/// Where every loaded item sits in the list: a pure function of the pages, the filter's text and the
/// order. `ListScreen` keeps the last one it made with the `Key` it was made for, so most keys and
/// every frame read it without rebuilding it for thousands of items.
package struct ListIndex: Sendable {
    /// What the index is made from: the pages' revision, the filter's text, the order.
    package struct Key: Sendable, Equatable {
        var pages: Int
        var query: String
        var sort: SortOrder
        var hide: [HideRule] = []
        var showsHidden = false
    }

    /// Every loaded item, page after page.
    package let items: [Item]
    /// `Item.readingKey` of each item in `items`.
    package let keys: [String]
    /// Indices into `items` of every item listed, in feed order: all but the duplicates, and but the
    /// items the rules hide unless they are shown.
    package let listed: [Int]
    /// How many items are not duplicates, hidden or not.
    package let distinctCount: Int
    /// Indices into `items` of the items (not duplicates) the rules hide, shown or not.
    package let hidden: Set<Int>
    /// The list's rows: indices into `items` of the items listed (each once) that match the filter,
    /// in the order of `sort`.
    package let rows: [Int]
    /// What the list draws, top to bottom: the rows, with a "page N" boundary before the first row of
    /// each page after the first one shown.
    package let lines: [ListView.Line]
    /// The index in `lines` of each row.
    package let lineOfRow: [Int]
    /// The index in `items` of each page's first item, page after page (and the count at the end).
    private let starts: [Int]

    /// The index of `pages`, filtered by `query` (all items when empty) and ordered by `sort`,
    /// without the items `hide` hides unless `showsHidden`.
    package init(pages: [LoadedPage], query: String, sort: SortOrder, hide: [HideRule] = [], showsHidden: Bool = false) {
        let items = pages.flatMap(\.items)
        var starts = [0]
        starts.reserveCapacity(pages.count + 1)
        for page in pages { starts.append(starts[starts.count - 1] + page.items.count) }
        // An item listed on an earlier page (same id or link) is listed once, where it came first.
        var ids = Set<String>(), links = Set<String>()
        var listed: [Int] = []
        var hidden = Set<Int>(), distinct = 0
        listed.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let newID = item.id.map { $0.isEmpty || ids.insert($0).inserted } ?? true
            let newLink = item.url.map { $0.isEmpty || links.insert($0).inserted } ?? true
            guard newID && newLink else { continue }
            distinct += 1
            if !hide.isEmpty, hide.contains(where: { $0.matches(item) }) {
                hidden.insert(index)
                if !showsHidden { continue }
            }
            listed.append(index)
        }
        var rows = query.isEmpty ? listed : listed.filter { FilterState.matches(items[$0], query: query) }
        var lines: [ListView.Line] = []
        var lineOfRow: [Int] = []
        if sort == .feed {
            lines.reserveCapacity(rows.count + pages.count)
            lineOfRow.reserveCapacity(rows.count)
            var page = 0
            var lastPageShown: Int?
            for (row, index) in rows.enumerated() {
                while index >= starts[page + 1], page + 1 < pages.count { page += 1 }
                if let lastPageShown, lastPageShown != page { lines.append(.pageBoundary(pages[page].number)) }
                lastPageShown = page
                lineOfRow.append(lines.count)
                lines.append(.item(row: row))
            }
        } else {
            rows = sort.sorted(rows, items)
            lineOfRow = Array(rows.indices)
            lines = rows.indices.map { .item(row: $0) }
        }
        self.items = items
        self.keys = items.map(\.readingKey)
        self.listed = listed
        self.distinctCount = distinct
        self.hidden = hidden
        self.rows = rows
        self.lines = lines
        self.lineOfRow = lineOfRow
        self.starts = starts
    }

    /// The position (in the pages) of the page holding item `index`.
    package func pagePosition(ofItem index: Int) -> Int? {
        guard index >= 0, index < items.count else { return nil }
        // The last start at or before `index`; pages without items share their start with the next.
        var low = 0, high = starts.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The index in `items` of the first item of the page at `position`.
    package func firstItem(ofPagePosition position: Int) -> Int? {
        starts.indices.contains(position) && position < starts.count - 1 ? starts[position] : nil
    }

    /// How many items the page at `position` holds.
    package func itemCount(ofPagePosition position: Int) -> Int {
        position >= 0 && position < starts.count - 1 ? starts[position + 1] - starts[position] : 0
    }
}
