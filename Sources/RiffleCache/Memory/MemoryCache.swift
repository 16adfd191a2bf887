/// The memory tier: a least-recently-used map with a count limit and a cost (bytes) limit.
///
/// A value type owned by one actor. Slots live in one array linked by indices, so a hit is a dictionary
/// lookup and a few index writes, with no allocation and no reference counting of nodes.
///
/// ```
/// var memory = MemoryCache<String, Data>(countLimit: 100, costLimit: 1 << 20)
/// memory.set(data, for: "a", cost: data.count)
/// memory.value(for: "a")   // data, now the most recently used
/// ```
package struct MemoryCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value?
        var cost: Int
        var newer: Int
        var older: Int
    }

    /// The most entries kept.
    package let countLimit: Int
    /// The most total cost kept.
    package let costLimit: Int
    /// The sum of the costs of the entries kept.
    package private(set) var totalCost = 0
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    package init(countLimit: Int, costLimit: Int) {
        self.countLimit = countLimit
        self.costLimit = costLimit
    }

    /// Entries kept.
    package var count: Int { index.count }

    /// The value for `key`, which becomes the most recently used.
    package mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return slots[slot].value
    }

    /// Stores `value`; a value costing more than the whole limit is not kept.
    package mutating func set(_ value: Value, for key: Key, cost: Int) {
        removeValue(for: key)
        guard cost <= costLimit, countLimit > 0 else { return }
        let slot: Int
        let fresh = Slot(key: key, value: value, cost: cost, newer: -1, older: newest)
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = fresh
        } else {
            slot = slots.count
            slots.append(fresh)
        }
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        totalCost += cost
        while index.count > countLimit || totalCost > costLimit, oldest >= 0 {
            removeValue(for: slots[oldest].key)
        }
    }

    /// Forgets `key`.
    package mutating func removeValue(for key: Key) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= slots[slot].cost
        slots[slot].value = nil
        freeSlots.append(slot)
    }

    /// Forgets everything.
    package mutating func removeAll() {
        self = MemoryCache(countLimit: countLimit, costLimit: costLimit)
    }

    /// Keys from most to least recently used (for tests).
    package var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0 {
            keys.append(slots[slot].key)
            slot = slots[slot].older
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        slots[slot].older = newest
        slots[slot].newer = -1
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
    }
}
