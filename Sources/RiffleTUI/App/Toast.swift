import Foundation

/// A short message drawn over the bottom of the list for a few seconds, then kept in the log.
package struct Toast: Sendable, Equatable {
    /// How long a toast stays on screen.
    package static let lifetime: TimeInterval = 3
    /// How many toasts are drawn at once; older ones are hidden (they stay in the log).
    package static let maxVisible = 3

    /// One line; sanitised when drawn.
    package var message: String
    /// When the toast's clock started: the first tick after it was raised. Nil until then, because
    /// `AppState.now` may be stale when a key raises a toast between ticks.
    package var createdAt: Date?

    /// A toast; its clock starts at the next tick unless `createdAt` is given.
    package init(message: String, createdAt: Date? = nil) {
        self.message = message
        self.createdAt = createdAt
    }

    /// Whether the toast is still shown at `now`.
    package func isVisible(at now: Date) -> Bool {
        guard let createdAt else { return true }
        return now.timeIntervalSince(createdAt) < Toast.lifetime
    }
}
