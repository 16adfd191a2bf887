import Foundation

/// A short message drawn in a corner of the body for a few seconds, then kept in the log.
package struct Toast: Sendable, Equatable {
    /// How long a toast stays on screen.
    package static let lifetime: TimeInterval = 3
    /// How many toasts are drawn at once; older ones are hidden (they stay in the log).
    package static let maxVisible = 3
    /// How many messages the log keeps, the newest: a browser left open all day with `--watch` on a
    /// failing feed raises one every interval, and `L` shows only the last screenful.
    package static let logLimit = 1_000

    /// What a toast reports, when a newer report of the same thing makes it old news: `s` pressed
    /// twice leaves one "sorted" toast, the second, not two stacked.
    package enum Topic: Sendable, Equatable {
        /// The list's order (`s`).
        case sort
        /// Watching page 1 (`w`).
        case watch
        /// What a reload or a watch brought ("3 new items").
        case arrivals
        /// Marking everything seen (`M`).
        case marks
        /// Showing or hiding what the rules hide (`H`), or pages they hid whole.
        case hidden
        /// Pages of a reload (`r`, `R`) that failed with this reason.
        case reloadFailure(String)
    }

    /// One line; sanitised when drawn.
    package var message: String
    /// What it reports, if a newer toast may replace it.
    package var topic: Topic?
    /// When the toast's clock started: the first tick after it was raised. Nil until then, because
    /// `AppState.now` may be stale when a key raises a toast between ticks.
    package var createdAt: Date?
    /// Taken off the screen by a newer toast on the same topic or with the same message (still in the log).
    package var isReplaced = false

    /// A toast; its clock starts at the next tick unless `createdAt` is given.
    package init(message: String, topic: Topic? = nil, createdAt: Date? = nil) {
        self.message = message
        self.topic = topic
        self.createdAt = createdAt
    }

    /// Whether the toast is still shown at `now`.
    package func isVisible(at now: Date) -> Bool {
        guard !isReplaced else { return false }
        guard let createdAt else { return true }
        return now.timeIntervalSince(createdAt) < Toast.lifetime
    }
}
