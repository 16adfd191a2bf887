import Foundation
import RiffleKit

/// The selected item, and since when: it counts as seen once it stays selected a moment.
public struct Resting: Sendable, Equatable {
    public var key: String
    public var since: Date

    public init(key: String, since: Date) {
        self.key = key
        self.since = since
    }
}

/// The order of the list (`s` cycles through them).
public enum SortOrder: Sendable, Equatable, CaseIterable {
    /// As the feed sends them, page after page.
    case feed
    /// Newest first, by the items' own time; items without one last.
    case newest
    /// Highest score first (points, votes, stars); items without one last.
    case score

    /// What the status bar calls it; nil for the feed's own order.
    public var label: String? {
        switch self {
        case .feed: nil
        case .newest: "newest first"
        case .score: "top score first"
        }
    }

    /// The next order `s` goes to.
    public var next: SortOrder {
        switch self {
        case .feed: .newest
        case .newest: .score
        case .score: .feed
        }
    }

    /// `rows` (indices into `items`) in this order; ties keep the feed's order.
    func sorted(_ rows: [Int], _ items: [Item]) -> [Int] {
        switch self {
        case .feed:
            return rows
        case .newest:
            return rows.enumerated().sorted { a, b in
                let x = items[a.element].createdAt ?? .distantPast, y = items[b.element].createdAt ?? .distantPast
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
        case .score:
            return rows.enumerated().sorted { a, b in
                let x = items[a.element].score ?? .min, y = items[b.element].score ?? .min
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
        }
    }
}

/// Watching: page 1 is revalidated every `interval` seconds.
public struct Watch: Sendable, Equatable {
    public var interval: TimeInterval
    /// When the next revalidation is due.
    public var next: Date

    public init(interval: TimeInterval, next: Date) {
        self.interval = interval
        self.next = next
    }

    /// "5m", "30s", "2h": how the status bar and the toasts say the interval.
    public var label: String { Watch.label(interval) }

    static func label(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}

/// A line typed at the bottom of the screen.
public struct Prompt: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        /// Words to search everything seen for (`S`).
        case search
        /// The argument of a feed that takes one (`reddit:` → `swift`), from the feed list.
        case argument(FeedEntry)
    }

    public var purpose: Purpose
    public var text: String

    public init(_ purpose: Purpose, text: String = "") {
        self.purpose = purpose
        self.text = text
    }

    /// What stands before the text: "search: ", "reddit:".
    public var label: String {
        switch purpose {
        case .search: "search: "
        case .argument(let entry): "\(entry.name):"
        }
    }
}

/// Reloads asked for together, for one toast when the last one is answered.
public struct ReloadTally: Sendable, Equatable {
    /// Pages still to answer.
    public var pending: Set<Int>
    /// Items that were not listed before, so far.
    public var arrived = 0
    /// Whether any page came back (a failure has its own toast).
    public var answered = false

    public init(pending: Set<Int>) { self.pending = pending }
}
