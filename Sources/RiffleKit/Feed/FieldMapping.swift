/// Which fields of an item the browser shows, as paths into the item (`user.login`). A nil path (or
/// an empty `subtitle`) leaves that part to the plan `ItemExtractor` infers from the page; a mapped
/// part wins over it.
public struct FieldMapping: Sendable, Hashable {
    /// The line shown in the list.
    public var title: JSONPath?
    /// Short facts shown dimmer after the title, in order, as written; when set they replace the
    /// author and counts.
    public var subtitle: [JSONPath]
    /// The item's link.
    public var link: JSONPath?
    /// The item's id.
    public var id: JSONPath?
    /// When the item was created (ISO 8601 text or Unix seconds).
    public var time: JSONPath?
    /// Who wrote it.
    public var author: JSONPath?
    /// Its points, votes or stars: a whole number, shown with the unit its key names ("12 stars").
    public var score: JSONPath?
    /// Its number of comments or replies.
    public var comments: JSONPath?

    /// - Parameters: paths into an item; nil (or `[]`) leaves that part to the inferred plan.
    public init(title: JSONPath? = nil, subtitle: [JSONPath] = [], link: JSONPath? = nil, id: JSONPath? = nil, time: JSONPath? = nil,
                author: JSONPath? = nil, score: JSONPath? = nil, comments: JSONPath? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.link = link
        self.id = id
        self.time = time
        self.author = author
        self.score = score
        self.comments = comments
    }

    /// Whether nothing is mapped.
    public var isEmpty: Bool { self == FieldMapping() }
}
