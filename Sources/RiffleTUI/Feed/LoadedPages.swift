import Foundation
import RiffleKit

/// The pages of the open feed that are loaded, consecutive and in order, with a count of their
/// changes (`revision`) that the list's index is keyed by: a page appended or replaced makes the
/// index stale without its items being compared.
package struct LoadedPages: Sendable, Equatable {
    /// The pages, first one first.
    package private(set) var all: [LoadedPage] = []
    /// Bumped by every change of `all`.
    package private(set) var revision = Revision()

    package init() {}

    /// Adds `page` after the last one.
    package mutating func append(_ page: LoadedPage) {
        all.append(page)
        revision.bump()
    }

    /// Removes the page at `position` (an index in `all`) and every page after it: the pages stay consecutive.
    package mutating func removeAll(from position: Int) {
        all.removeSubrange(position...)
        revision.bump()
    }

    /// Puts `page` in place of the page at `position` (an index in `all`).
    package mutating func replace(at position: Int, with page: LoadedPage) {
        all[position] = page
        revision.bump()
    }

    /// Puts `page` (a newer copy of the page at `position`) in its place without losing an item.
    /// Items are matched by `Item.readingKey` (id, else link), never by position: what the old copy
    /// held and no loaded page holds any more moved on to a later page (new items came in above it),
    /// so it goes to the top of the next loaded page, or after the last page when there is none.
    /// Pages in `refreshed` (answered in the same reload, so already newer than the items' move) are
    /// passed over. An item the server dropped stays listed until the feed is opened again.
    package mutating func merge(_ page: LoadedPage, at position: Int, refreshed: Set<Int> = []) {
        var held = Set<String>()
        for (k, other) in all.enumerated() where k != position {
            for item in other.items { held.insert(item.readingKey) }
        }
        for item in page.items { held.insert(item.readingKey) }
        let movedOn = all[position].items.filter { !held.contains($0.readingKey) }
        all[position] = page
        if !movedOn.isEmpty {
            if let next = all.indices.first(where: { $0 > position && !refreshed.contains(all[$0].number) }) {
                all[next].items.insert(contentsOf: movedOn, at: 0)
            } else {
                all[all.count - 1].items += movedOn
            }
        }
        revision.bump()
    }

    package var isEmpty: Bool { all.isEmpty }
    package var first: LoadedPage? { all.first }
    package var last: LoadedPage? { all.last }

    /// The position in `all` of page `number`, when it is loaded.
    package func position(of number: Int) -> Int? { all.firstIndex { $0.number == number } }

    /// Page `number`, when it is loaded.
    package func page(_ number: Int) -> LoadedPage? { position(of: number).map { all[$0] } }

    /// The number of the page an append would load.
    package var nextNumber: Int { (all.last?.number ?? 0) + 1 }
}

/// One page in the list.
package struct LoadedPage: Sendable, Equatable {
    /// The page number (1-based).
    package var number: Int
    /// Its items in the order the server sent them.
    package var items: [Item]
    /// Where it came from and when.
    package var info: PageInfo
    /// How many pages and items the feed has, when the page says.
    package var totalPages: Int?
    package var totalItems: Int?

    /// A page of the list.
    package init(number: Int, items: [Item], info: PageInfo) {
        self.number = number
        self.items = items
        self.info = info
    }

    /// The list's page for a loaded `Page`.
    package init(_ page: Page) {
        self.init(number: page.number, items: page.items,
                  info: PageInfo(source: page.source, fetchedAt: page.fetchedAt, status: page.status, freshUntil: page.freshUntil))
        totalPages = page.totalPages
        totalItems = page.totalItems
    }
}

/// Where a page came from, for the status bar.
package struct PageInfo: Sendable, Equatable {
    /// Read from the disk cache or fetched from the network.
    package var source: Page.Source
    /// When the page's bytes were fetched from the server.
    package var fetchedAt: Date
    /// The HTTP status of the response.
    package var status: Int
    /// Until when the page is fresh (`Page.freshUntil`); nil when not known.
    package var freshUntil: Date?

    /// Facts about a page.
    package init(source: Page.Source, fetchedAt: Date, status: Int, freshUntil: Date? = nil) {
        self.source = source
        self.fetchedAt = fetchedAt
        self.status = status
        self.freshUntil = freshUntil
    }
}
