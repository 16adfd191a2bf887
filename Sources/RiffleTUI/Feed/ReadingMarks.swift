import Foundation
import RiffleKit

/// What the reader has done with the open feed's items: which were seen, which came new with a
/// reload or a watch, and which one is being rested on.
package struct ReadingMarks: Sendable, Equatable {
    /// The keys (`Item.readingKey`) of the items seen, as the reading log says and as marked since;
    /// nil until the log answered (items are then drawn as before, neither seen nor unseen).
    package private(set) var seen: Set<String>?
    /// Bumped by every change of `seen`: the list's unseen count is keyed by it.
    package private(set) var revision = Revision()
    /// Items that came with a reload or a watch and were not listed before: drawn with "new" until seen.
    package var arrived: Set<String> = []
    /// The keys of every item the list has held since the feed was opened, whatever page it was on
    /// and wherever it moved since: what a reload or a watch brings is new only when it is not here.
    package private(set) var listed: Set<String> = []
    /// The selected item and since when it has been selected: it counts as seen after `Settings.seenAfter`.
    package var resting: Resting?

    package init() {}

    /// Whether the item with `key` was seen; nil while the reading log has not answered.
    package func isSeen(_ key: String) -> Bool? { seen.map { $0.contains(key) } }

    /// The reading log's answer, with the marks made before it came kept.
    package mutating func merge(logged keys: Set<String>) {
        let merged = keys.union(seen ?? [])
        guard merged != seen else { return }
        seen = merged
        revision.bump()
    }

    /// Marks `items` seen; returns those that were not (they are no longer "new" either), in order.
    package mutating func markSeen(_ items: [Item]) -> [Item] {
        var marks = seen ?? []
        let added = items.filter { marks.insert($0.readingKey).inserted }
        guard !added.isEmpty else { return [] }
        seen = marks
        for item in added { arrived.remove(item.readingKey) }
        revision.bump()
        return added
    }

    /// Notes that `items` joined the list; returns the keys of those that are new: never listed
    /// since the feed was opened, and not seen.
    @discardableResult
    package mutating func noteListed(_ items: [Item]) -> Set<String> {
        var new = Set<String>()
        for item in items {
            let key = item.readingKey
            if listed.insert(key).inserted, seen?.contains(key) != true { new.insert(key) }
        }
        return new
    }

    /// Makes the item with `key` unseen again; false when it was not seen.
    package mutating func markUnseen(_ key: String) -> Bool {
        guard seen?.contains(key) == true else { return false }
        seen?.remove(key)
        revision.bump()
        return true
    }
}

/// The selected item, and since when: it counts as seen once it stays selected a moment.
package struct Resting: Sendable, Equatable {
    package var key: String
    package var since: Date

    package init(key: String, since: Date) {
        self.key = key
        self.since = since
    }
}
