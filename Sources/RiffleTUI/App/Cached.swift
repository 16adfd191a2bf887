/// Something expensive made from a state's inputs (the list's index, a screen's lines), kept with the
/// key of the inputs it was made from, so a read can tell whether it is stale.
///
/// A read never sees a stale value: `value(for:)` answers only for the key it was made from, and the
/// caller makes it afresh otherwise. `App.update` brings every cache up to date at its end
/// (`AppState.settle()`), so `App.view` and the next key find them ready.
///
/// ```swift
/// var lines = Cached<Int, [String]>()
/// let wrapped = lines.value(for: 80) { ["made", "for", "80 columns"] }   // made and kept
/// let again = lines.value(for: 80)     // the kept one: nothing is made
/// let other = lines.value(for: 120)    // nil: what is kept is stale for another width
/// ```
package struct Cached<Key: Equatable & Sendable, Value: Sendable>: Sendable, Equatable {
    private var entry: (key: Key, value: Value)?

    /// Nothing kept yet.
    package init() {}

    /// The value made for `key`, if that is the one kept.
    package func value(for key: Key) -> Value? {
        guard let entry, entry.key == key else { return nil }
        return entry.value
    }

    /// The value for `key`: the one kept, else `make()`'s, kept from now on.
    @discardableResult
    package mutating func value(for key: Key, orMake make: () -> Value) -> Value {
        if let value = value(for: key) { return value }
        let value = make()
        entry = (key, value)
        return value
    }

    /// Always equal: what is derived is not part of a state's value. Two states with the same inputs
    /// are equal whether or not either has made it yet.
    package static func == (lhs: Cached, rhs: Cached) -> Bool { true }
}

/// Counts the changes of the value beside it, so a `Cached` key can say "made from this version"
/// without holding or comparing the value (thousands of items, a whole thread).
///
/// Not part of equality either: two values with the same content are equal however many changes led
/// to them. Keys use `count`, which does compare.
package struct Revision: Sendable, Equatable {
    /// How many changes so far.
    package private(set) var count = 0

    package init() {}

    /// Notes one more change.
    package mutating func bump() { count &+= 1 }

    package static func == (lhs: Revision, rhs: Revision) -> Bool { true }
}
