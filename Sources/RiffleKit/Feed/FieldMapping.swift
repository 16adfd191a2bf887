/// Which fields of an item the browser shows, as dotted paths into the item (`user.login`).
/// A nil path (or an empty `subtitle`) leaves that part to `ItemExtractor`'s automatic guesses.
public struct FieldMapping: Sendable, Hashable {
    /// The line shown in the list.
    public var title: String?
    /// Short facts shown dimmer after the title, in order.
    public var subtitle: [String]
    /// The item's link.
    public var link: String?
    /// The item's id.
    public var id: String?
    /// When the item was created (ISO 8601 text or Unix seconds).
    public var time: String?

    /// - Parameters: dotted paths into an item; nil (or `[]`) leaves that part to the automatic guesses.
    public init(title: String? = nil, subtitle: [String] = [], link: String? = nil, id: String? = nil, time: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.link = link
        self.id = id
        self.time = time
    }

    /// Whether nothing is mapped.
    public var isEmpty: Bool { self == FieldMapping() }
}
