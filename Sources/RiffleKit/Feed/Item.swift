import Foundation

/// One entry of a feed, as the browser lists it.
public struct Item: Sendable, Equatable {
    /// The item's id when it has one (`id`, `objectID`, `name`...), as text.
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
    /// Every field of the item as the server sent it.
    public var fields: JSONValue

    public init(id: String?, title: String, details: [String], url: String?, createdAt: Date?, fields: JSONValue) {
        self.id = id
        self.title = title
        self.details = details
        self.url = url
        self.createdAt = createdAt
        self.fields = fields
    }
}
