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
    /// Items made unseen with `m`: moving past them (`seen: scroll`) leaves them unseen; only opening
    /// or marking them makes them seen again.
    package private(set) var keptUnseen: Set<String> = []
    /// The keys of the open feed's saved items (`f`), as the reading log says and as saved since.
    package private(set) var saved: Set<String> = []
    /// Whether the log said what was saved; until then, what is unsaved is noted in `unsavedEarly`.
    private var savedAnswered = false
    /// Unsaved before the log said what was saved: not taken back from its answer.
    private var unsavedEarly: Set<String> = []

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
    /// - Parameter passing: they were only moved past (`seen: scroll`): those kept unseen with `m` stay so.
    package mutating func markSeen(_ items: [Item], passing: Bool = false) -> [Item] {
        var marks = seen ?? []
        let added = items.filter { item in
            let key = item.readingKey
            if passing, keptUnseen.contains(key) { return false }
            keptUnseen.remove(key)
            return marks.insert(key).inserted
        }
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
        keptUnseen.insert(key)
        revision.bump()
        return true
    }

    /// Whether the item with `key` is saved.
    package func isSaved(_ key: String) -> Bool { saved.contains(key) }

    /// The reading log's saved keys: its first answer keeps what was saved or unsaved before it came;
    /// a later one (after an item was unsaved from the saved list) is taken as it is.
    package mutating func merge(saved keys: Set<String>) {
        saved = savedAnswered ? keys : saved.union(keys.subtracting(unsavedEarly))
        savedAnswered = true
        unsavedEarly = []
    }

    /// Saves (or unsaves) the item with `key`.
    package mutating func setSaved(_ key: String, _ isSaved: Bool) {
        if isSaved {
            saved.insert(key)
            unsavedEarly.remove(key)
        } else {
            saved.remove(key)
            if !savedAnswered { unsavedEarly.insert(key) }
        }
    }
}
