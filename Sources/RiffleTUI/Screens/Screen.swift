import Foundation
import RiffleKit

/// One entry of the screen stack (`ScreenStack`): a screen that fills the space between the header
/// and the status bar, or an overlay drawn over the screen under it.
///
/// Each screen lives in one file of `Screens/` with its state, its keys and its view. Adding one is
/// a new file, a case here and a line in `stacked`.
package enum Screen: Sendable, Equatable {
    /// The open feed's list. Its state is `AppState.list`, not here: pages arrive, reload and are
    /// marked seen while other screens are over it.
    case list
    /// One item, whole (Enter).
    case item(ItemScreen)
    /// One item's comments as a tree (`c`).
    case comments(CommentsScreen)
    /// The feeds there are, with what is unseen in each (`F`).
    case feeds(FeedsScreen)
    /// What a search of everything seen found (`S`).
    case search(SearchScreen)
    /// The field picker: which path each part of a row is read from (`e`).
    case fields(FieldsScreen)
    /// The items saved with `f`, from every feed (the feed list's "saved").
    case saved(SavedScreen)
    /// A box or a line over the screen under it; the keys go to it while it is open.
    case overlay(Overlay)

    /// Whether it is drawn over another screen rather than in place of it.
    package var isOverlay: Bool {
        if case .overlay = self { true } else { false }
    }

    /// The screen's state as the screen it is; nil for the list (kept in `AppState.list`) and overlays.
    var stacked: (any StackedScreen)? {
        switch self {
        case .item(let screen): screen
        case .comments(let screen): screen
        case .feeds(let screen): screen
        case .search(let screen): screen
        case .fields(let screen): screen
        case .saved(let screen): screen
        case .list, .overlay: nil
        }
    }
}

/// What every screen has: its own keys, its view, and the item the item commands act on.
protocol ScreenContent: Sendable {
    /// The screen's own answer to `command`, when it is shown; nil leaves the command to the item
    /// commands (`App.itemCommand`) and then to the browser's (`App.browserCommand`).
    static func press(_ command: Command, in state: inout AppState) -> [Effect]?
    /// Draws the whole screen (header, body, status bar) into `buffer`; toasts and overlays come after.
    func render(_ state: AppState, into buffer: inout Buffer)
    /// What the item commands (open, copy, comments, seen...) act on; nil for a screen without items.
    var itemSelection: ItemSelection? { get }
    /// The screen row toasts must leave visible (the selected row), if any.
    func rowToKeepClear(_ state: AppState) -> Int?
}

extension ScreenContent {
    var itemSelection: ItemSelection? { nil }
    func rowToKeepClear(_ state: AppState) -> Int? { nil }
}

/// A screen kept in the stack as a `Screen` case.
protocol StackedScreen: ScreenContent {
    /// The screen in `screen`, when it is one of these.
    init?(_ screen: Screen)
    /// This screen as a stack entry.
    var screen: Screen { get }
    /// Brings what it has laid out up to date for `size` (`Cached` layouts); called at the end of every update.
    mutating func settle(size: Size)
    /// Whether what it keeps laid out is for `size` and its content as they are: what `settle` leaves.
    func isSettled(size: Size) -> Bool
    /// Keeps what was in view in view after the terminal changed size.
    mutating func resized(to size: Size)
    /// `settle(size:)` for a screen whose lines also depend on the clock (an age laid out in them).
    mutating func settle(size: Size, now: Date)
    /// `isSettled(size:)` for a screen whose lines also depend on the clock.
    func isSettled(size: Size, now: Date) -> Bool
    /// `resized(to:)` for a screen whose lines also depend on the clock.
    mutating func resized(to size: Size, now: Date)
}

extension StackedScreen {
    mutating func settle(size: Size) {}
    func isSettled(size: Size) -> Bool { true }
    mutating func resized(to size: Size) {}
    mutating func settle(size: Size, now: Date) { settle(size: size) }
    func isSettled(size: Size, now: Date) -> Bool { isSettled(size: size) }
    mutating func resized(to size: Size, now: Date) { resized(to: size) }
}

/// What an item command acts on: the selected item of the screen shown.
package struct ItemSelection: Sendable, Equatable {
    /// The item; nil when the screen lists items but none is selected (an empty list).
    package var item: Item?
    /// Whether it is one of the open feed's items: seen marks, comments and the discussion page go
    /// through the open feed, so they apply only to those (not to search results from other feeds).
    package var isInOpenFeed: Bool

    package init(item: Item?, isInOpenFeed: Bool) {
        self.item = item
        self.isInOpenFeed = isInOpenFeed
    }
}
