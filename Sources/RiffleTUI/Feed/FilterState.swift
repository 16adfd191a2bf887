import Foundation
import RiffleKit

/// The `/` filter over the loaded items.
package struct FilterState: Sendable, Equatable {
    /// The query as typed, with its cursor.
    package var field: TextField
    /// True while the user types it; Enter keeps it and returns to moving.
    package var isEditing: Bool

    /// A filter; new ones start empty and being typed, the cursor at the end.
    package init(query: String = "", isEditing: Bool = true) {
        field = TextField(query)
        self.isEditing = isEditing
    }

    /// The text to find (case-insensitively) in titles and details.
    package var query: String { field.text }

    /// Whether `item`'s title or details contain `query`, ignoring case (any script: CJK, accents...).
    package static func matches(_ item: Item, query: String) -> Bool {
        item.title.range(of: query, options: [.caseInsensitive]) != nil
            || item.details.contains { $0.range(of: query, options: [.caseInsensitive]) != nil }
    }
}
