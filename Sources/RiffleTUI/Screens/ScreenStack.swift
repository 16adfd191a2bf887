/// The screens, bottom first: the list or the feed list at the bottom, then what was opened over
/// it (an item, its comments, search results), then any overlays (help, the log, a line being typed).
///
/// The top entry gets the keys. The topmost screen that is not an overlay is the one `shown`:
/// drawn in full, with the overlays above it drawn over it. Esc and q pop the shown screen.
///
/// ```swift
/// var screens = ScreenStack(.list)
/// screens.push(.overlay(.help(scroll: 0)))
/// let shown = screens.shown        // .list, under the help box
/// ```
package struct ScreenStack: Sendable, Equatable {
    /// Every entry, bottom first; never empty.
    package private(set) var entries: [Screen]

    /// A stack of one screen.
    package init(_ bottom: Screen) { entries = [bottom] }

    /// A stack of `entries`, bottom first (one at least).
    package init(_ entries: [Screen]) {
        precondition(!entries.isEmpty, "a screen stack holds one screen at least")
        self.entries = entries
    }

    /// The entry that gets the keys.
    package var top: Screen { entries[entries.count - 1] }

    /// The position of the screen drawn in full: the topmost that is not an overlay.
    private var shownIndex: Int { entries.lastIndex { !$0.isOverlay } ?? 0 }

    /// The screen drawn in full, under any overlays. Setting it replaces that entry.
    package var shown: Screen {
        get { entries[shownIndex] }
        set { entries[shownIndex] = newValue }
    }

    /// The shown screen as an `S`, when it is one.
    func shown<S: StackedScreen>(as type: S.Type) -> S? { S(shown) }

    /// The overlay on top, if any.
    package var overlay: Overlay? {
        if case .overlay(let overlay) = top { overlay } else { nil }
    }

    /// The overlays over the shown screen, bottom first.
    package var overlays: [Overlay] {
        entries[(shownIndex + 1)...].compactMap { if case .overlay(let overlay) = $0 { overlay } else { nil } }
    }

    /// Whether there is a screen under the shown one for Esc and q to go back to.
    package var canGoBack: Bool { shownIndex > 0 }

    /// Puts `screen` in place of the entry at `position` (an index in `entries`).
    package mutating func replace(at position: Int, with screen: Screen) { entries[position] = screen }

    /// Puts `screen` on top.
    package mutating func push(_ screen: Screen) { entries.append(screen) }

    /// Removes the top entry, unless it is the last one; returns it.
    @discardableResult
    package mutating func pop() -> Screen? {
        entries.count > 1 ? entries.removeLast() : nil
    }
}
