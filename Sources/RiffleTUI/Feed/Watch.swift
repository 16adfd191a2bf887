import Foundation

/// Watching: page 1 is revalidated every `interval` seconds.
package struct Watch: Sendable, Equatable {
    package var interval: TimeInterval
    /// When the next revalidation is due.
    package var next: Date

    package init(interval: TimeInterval, next: Date) {
        self.interval = interval
        self.next = next
    }

    /// "5m", "30s", "2h": how the status bar and the toasts say the interval.
    package var label: String { Watch.label(interval) }

    static func label(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
