import Foundation

/// One story of the demo feed, as it appears in the page JSON.
public struct DemoItem: Codable, Sendable, Equatable {
    /// Unique, descending from page 1 onwards.
    public var id: Int
    /// English, Chinese, Japanese or emoji-laden; a few are far wider than 120 columns.
    public var title: String
    /// English, Chinese, Japanese or emoji user names.
    public var author: String
    /// Points, heavy-tailed like a real link aggregator.
    public var score: Int
    /// Always under `https://example.com/`.
    public var url: String
    /// Encoded as ISO 8601 with a `Z`, e.g. `2025-06-01T11:53:00Z`.
    public var createdAt: Date
    /// A paragraph or two of text.
    public var body: String

    /// Creates an item.
    public init(id: Int, title: String, author: String, score: Int, url: String, createdAt: Date, body: String) {
        self.id = id
        self.title = title
        self.author = author
        self.score = score
        self.url = url
        self.createdAt = createdAt
        self.body = body
    }

    enum CodingKeys: String, CodingKey {
        case id, title, author, score, url
        case createdAt = "created_at"
        case body
    }
}
