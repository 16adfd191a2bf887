import Foundation

/// What the configuration and the command line fix for the whole session: the same for every feed
/// opened, never changed by a key.
///
/// ```swift
/// var settings = Settings()
/// settings.watch = 120          // --watch 2m: page 1 revalidated every two minutes from the start
/// let state = AppState(feedTitle: "hn", size: Size(width: 80, height: 24), now: Date(), settings: settings)
/// ```
package struct Settings: Sendable, Equatable {
    /// What each key does (`config.json`'s `keys`).
    package var keymap = KeyMap.standard
    /// Seen items carry a glyph, for screens without colours (`NO_COLOR`, the mono theme) where dim
    /// may not show.
    package var marksWithGlyphs = false
    /// When an item counts as seen besides being marked (`config.json`'s `seen`).
    package var seen = SeenRule.open
    /// A cached page that does not know its own freshness (`PageInfo.freshUntil`) shows as "stale"
    /// in the status bar when older than this.
    package var staleAfter: TimeInterval = 3600
    /// `--watch`: page 1 is revalidated on this interval from the start; nil to start without.
    package var watch: TimeInterval?
    /// The interval `w` turns watching on with.
    package var watchInterval: TimeInterval = 300
    /// The most columns a comment's text takes, however wide the terminal (`config.json`'s `text_width`).
    package var textWidth = 80

    /// The standard keys, no glyphs, no watching.
    package init() {}
}

/// When an item becomes seen, besides `m` and `M` (`config.json`'s `seen`).
package enum SeenRule: String, Sendable, Equatable, CaseIterable {
    /// When it is opened: Enter, `o`, `c`. Moving over the list marks nothing.
    case open
    /// Also when the selection moves down past it (`j`, PgDn, the wheel...).
    case scroll
}
