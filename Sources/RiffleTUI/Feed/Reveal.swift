import Foundation
import RiffleKit

/// An item to find in the feed just opened from search results (Enter, `c`): the feed's pages are
/// read in order (from the disk when stored, so offline too) until the item is listed, then it is
/// selected and opened, or its comments are.
package struct Reveal: Sendable, Equatable {
    /// What is done with the item once it is listed.
    package enum Then: Sendable, Equatable {
        /// Its item screen, over the list (Enter).
        case open
        /// Its comments, over the list (`c`).
        case comments
    }

    /// Pages read looking for it before giving up: an item the feed has pushed further has left
    /// what a reader would page through.
    package static let pageLimit = 20

    /// The item's `readingKey`.
    package var key: String
    /// Its title, for the toast when it is not found.
    package var title: String
    package var then: Then
    /// The item itself, when it is known whole (a saved item, with every field): it is opened at once
    /// as the feed opens, not looked for in its pages, where it may be no longer.
    package var item: Item?

    package init(key: String, title: String, then: Then, item: Item? = nil) {
        self.key = key
        self.title = title
        self.then = then
        self.item = item
    }
}

extension App {
    /// The feed just opened for an item known whole (`Reveal.item`): the item is opened, or its
    /// comments are, over the list at once.
    static func revealKnownItem(_ state: inout AppState) -> [Effect] {
        guard let reveal = state.feed.reveal, let item = reveal.item else { return [] }
        state.feed.reveal = nil
        let selection = ItemSelection(item: item, isInOpenFeed: true)
        return itemCommand(reveal.then == .comments ? .comments : .open, on: selection, &state) ?? []
    }

    /// Looks for the item being revealed among the loaded pages: found, it is selected and opened (or
    /// its comments are); else the next page is asked for, until the feed ends, a page fails or
    /// `Reveal.pageLimit` pages were read.
    static func revealIfListed(_ state: inout AppState) -> [Effect] {
        guard let reveal = state.feed.reveal else { return [] }
        var index = state.list.index
        // A result the rules hide is shown with them (dimmed), rather than looked for in vain.
        if !state.list.showsHidden, index.hidden.contains(where: { index.keys[$0] == reveal.key }) {
            ListScreen.refilter(&state) { $0.setShowsHidden(true) }
            raise(&state, "a rule hides \"\(reveal.title)\": showing what the rules hide", topic: .hidden)
            index = state.list.index
        }
        if let row = index.rows.firstIndex(where: { index.keys[$0] == reveal.key }) {
            state.feed.reveal = nil
            select(&state, row)
            let selection = ItemSelection(item: state.list.selectedItem, isInOpenFeed: true)
            return itemCommand(reveal.then == .comments ? .comments : .open, on: selection, &state) ?? []
        }
        let paging = state.feed.paging
        guard !paging.isAppending else { return [] }
        guard !paging.endOfFeed, paging.failure == nil, state.list.pages.all.count < Reveal.pageLimit else {
            state.feed.reveal = nil
            // A failed page has said why already.
            if paging.failure == nil {
                raise(&state, "\"\(reveal.title)\" is no longer in the first \(state.list.pages.all.count) pages of \(state.feed.title)")
            }
            return []
        }
        return appendNextPage(&state, explicit: true)
    }
}
