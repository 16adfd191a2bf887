import Foundation
import RiffleKit

/// The order of the list (`s` cycles through them).
package enum SortOrder: Sendable, Equatable, CaseIterable {
    /// As the feed sends them, page after page.
    case feed
    /// Newest first, by the items' own time; items without one last.
    case newest
    /// Highest score first (points, votes, stars); items without one last.
    case score

    /// What the status bar calls it; nil for the feed's own order.
    package var label: String? {
        switch self {
        case .feed: nil
        case .newest: "newest first"
        case .score: "top score first"
        }
    }

    /// The next order `s` goes to.
    package var next: SortOrder {
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
