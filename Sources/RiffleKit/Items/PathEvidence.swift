/// What the values at one path look like across the items a plan was inferred from: how many items
/// have one, of which kinds, how many differ, what shape the strings have. Counted on the tape by
/// `EvidenceCollector`; read by `FieldPlanner`'s scores and by the plan's reasons.
struct PathEvidence: Sendable, Equatable {
    /// The path this one continues (-1 for a member of the item itself).
    var parent: Int32
    /// The tape index where this path's last key was first seen; `each` or `first` for an array step.
    var key: Int32
    /// Components from the item (`user.login` is 2).
    var depth: UInt8
    /// When the path was first seen, in the item's order: earlier keys win ties.
    var order: UInt16
    /// What the key names say (`KeyWords`), the parents' included.
    var hint: KeyWords.Hint
    /// What the last key's own words say.
    var own: KeyWords.Hint

    /// `key` of a `*` step: the first element of an array of objects stands for all of them.
    static let each: Int32 = -1
    /// `key` of a `0` step: the first string of an array of strings.
    static let first: Int32 = -2

    /// The last item counted, so an item counts once.
    var lastItem: Int32 = -1
    /// Items with a value here other than null.
    var present: UInt16 = 0
    /// Strings, empty ones apart.
    var strings: UInt16 = 0
    /// Of those, how many had their shape looked at (`EvidenceCollector.maxShaped`).
    var shaped: UInt16 = 0
    var empty: UInt16 = 0
    var numbers: UInt16 = 0
    /// Whole numbers (no fraction, no exponent).
    var integers: UInt16 = 0
    var zeros: UInt16 = 0
    var negatives: UInt16 = 0
    /// Whole numbers of 9 to 13 digits: Unix seconds or milliseconds, if the key says time.
    var epochs: UInt16 = 0
    /// Years alone: whole numbers of four digits (1000 to 2999), or strings that are one.
    var years: UInt16 = 0
    /// ISO 8601 strings with a time of day, not only a date.
    var dateTimes: UInt16 = 0
    /// Arrays of CSL date parts (`[[2022, 7, 26]]`).
    var dateParts: UInt16 = 0
    var booleans: UInt16 = 0
    var objects: UInt16 = 0
    var arrays: UInt16 = 0
    /// Different values seen (strings and numbers; by a hash of their bytes).
    var distinct: UInt16 = 0
    /// The shapes of the strings looked at.
    var shapes = ShapeCounts()
    var minWords: UInt16 = .max
    var maxWords: UInt16 = 0
    /// All the strings' bytes, for their mean length.
    var bytes: UInt32 = 0

    init(parent: Int32, key: Int32, depth: UInt8, order: UInt16, hint: KeyWords.Hint, own: KeyWords.Hint) {
        self.parent = parent
        self.key = key
        self.depth = depth
        self.order = order
        self.hint = hint
        self.own = own
    }

    /// The strings' mean length in bytes.
    var meanBytes: Double { strings == 0 ? 0 : Double(bytes) / Double(strings) }

    /// The share of the strings looked at that have `shape`.
    func share(_ shape: ValueShape) -> Double {
        shaped == 0 ? 0 : Double(shapes[shape]) / Double(shaped)
    }

    /// The share of the values (strings and numbers) that differ from one another.
    var distinctShare: Double {
        let values = Int(strings) + Int(numbers)
        return values == 0 ? 0 : Double(distinct) / Double(values)
    }
}
