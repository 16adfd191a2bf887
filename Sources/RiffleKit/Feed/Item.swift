import Foundation

/// One entry of a feed, as the browser lists it.
public struct Item: Sendable, Equatable {
    /// The item's id when it has one (`id`, `objectID`, `short_id`...), as text.
    public var id: String?
    /// The line shown in the list; never empty.
    public var title: String
    /// Two or three short facts shown dimmer after the title, e.g. `["pg", "120 points", "3h ago"]`.
    /// Ages are computed at display time from `createdAt`, so this holds only the static parts.
    public var details: [String]
    /// The item's link, when it has one.
    public var url: String?
    /// When the item was created, when the feed says.
    public var createdAt: Date?
    /// Who wrote it (`author`, `user.login`...), when found; usually also the first of `details`.
    public var author: String?
    /// Its count of points, votes or stars (`points`, `score`, `ups`...), when found: what sorting by
    /// score compares. Zero is left out, as in `details`.
    public var score: Int?
    /// Its number of comments or replies (`num_comments`, `descendants`...), when found; zero is left
    /// out, as in `details`.
    public var comments: Int?

    /// Where `fields` comes from: a built value, or a place in a lazily read document (a cached page's
    /// bodies are only decoded when the detail view asks for them).
    private enum Fields: Sendable {
        case value(JSONValue)
        case lazy(JSONNode)
    }
    private var storage: Fields

    /// Every field of the item as the server sent it. For an item read from a `JSONDocument` this is
    /// built on each read: keep the result rather than asking again in a loop.
    public var fields: JSONValue {
        get {
            switch storage {
            case .value(let value): value
            case .lazy(let node): node.value
            }
        }
        set { storage = .value(newValue) }
    }

    /// Where `fields` lies in the page's document, when it was read from one and not replaced since:
    /// what `riffle dump` copies from, rather than building the value.
    /// The string at `path` in the item, read without building `fields` when the item lives in a
    /// document (as a page's items do).
    package func string(at path: JSONPath) -> String? {
        switch storage {
        case .value(let value): value.value(at: path)?.stringValue
        case .lazy(let node): node.scalar(at: path)?.stringValue
        }
    }

    /// The text of every scalar at `path` in the item (several through `*`, and the scalar elements
    /// of an array there): what a `HideRule` on a field reads, without building `fields` when the
    /// item lives in a document.
    package func scalarTexts(at path: JSONPath) -> [String] {
        switch storage {
        case .lazy(let node): return node.scalarTexts(at: path)
        case .value(let value):
            guard let found = value.value(at: path) else { return [] }
            if case .array(let elements) = found { return elements.compactMap(\.scalarText) }
            return found.scalarText.map { [$0] } ?? []
        }
    }

    package var fieldsNode: JSONNode? {
        if case .lazy(let node) = storage { node } else { nil }
    }

    /// An item with these parts; `fields` is the item's whole JSON object.
    public init(id: String?, title: String, details: [String], url: String?, createdAt: Date?, fields: JSONValue) {
        self.init(id: id, title: title, details: details, url: url, createdAt: createdAt, storage: .value(fields))
    }

    /// An item whose `fields` stay in `node`'s document until read.
    public init(id: String?, title: String, details: [String], url: String?, createdAt: Date?, fieldsAt node: JSONNode) {
        self.init(id: id, title: title, details: details, url: url, createdAt: createdAt, storage: .lazy(node))
    }

    /// An item with every part, its `fields` left in `node`'s document: built in one go while a page is read.
    package init(id: String?, title: String, details: [String], url: String?, createdAt: Date?, author: String?, score: Int?,
                 comments: Int?, fieldsAt node: JSONNode) {
        self.id = id
        self.title = title
        self.details = details
        self.url = url
        self.createdAt = createdAt
        self.author = author
        self.score = score
        self.comments = comments
        self.storage = .lazy(node)
    }

    private init(id: String?, title: String, details: [String], url: String?, createdAt: Date?, storage: Fields) {
        self.id = id
        self.title = title
        self.details = details
        self.url = url
        self.createdAt = createdAt
        self.storage = storage
    }

    /// Whether two items have the same parts and the same JSON.
    public static func == (lhs: Item, rhs: Item) -> Bool {
        guard lhs.id == rhs.id, lhs.title == rhs.title, lhs.details == rhs.details, lhs.url == rhs.url,
              lhs.createdAt == rhs.createdAt, lhs.author == rhs.author, lhs.score == rhs.score,
              lhs.comments == rhs.comments else { return false }
        // Two views of the same bytes are equal without building either value.
        if case .lazy(let a) = lhs.storage, case .lazy(let b) = rhs.storage, a == b { return true }
        return lhs.fields == rhs.fields
    }
}
