import Foundation

/// The built-in demo feed: 720 items in pages of 30, loaded from `Assets/demo/items.json`.
///
/// ```swift
/// let feed = try DemoFeed.load()
/// let json = feed.pageJSON(1)   // {"page":1,"per_page":30,"total_pages":24,"items":[…]}
/// ```
public struct DemoFeed: Sendable {
    /// Which dates the served items carry.
    public enum Timeline: Sendable, Equatable {
        /// The dates in the asset file, which end at its fixed `reference_date`.
        case stored
        /// All dates moved by the same amount so that `reference_date` becomes this moment; item ages stay realistic.
        case endingAt(Date)
    }

    /// All items, newest first.
    public let items: [DemoItem]
    /// Items per page (30 for the built-in feed).
    public let perPage: Int
    /// The moment the stored dates were written relative to; the newest item is a few minutes older.
    public let referenceDate: Date

    /// Creates a feed from items already in memory, e.g. a small one for a test.
    public init(items: [DemoItem], perPage: Int = 30, referenceDate: Date = Date()) {
        self.items = items
        self.perPage = max(1, perPage)
        self.referenceDate = referenceDate
    }

    /// Loads `items.json` from `directory`, or from `DemoAssets.directory()` when nil.
    public static func load(from directory: URL? = nil) throws(DemoServerError) -> DemoFeed {
        let folder: URL
        if let directory { folder = directory } else { folder = try DemoAssets.directory() }
        let file = folder.appending(path: "items.json")
        do {
            let data = try Data(contentsOf: file)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let stored = try decoder.decode(StoredFeed.self, from: data)
            return DemoFeed(items: stored.items, perPage: stored.perPage, referenceDate: stored.referenceDate)
        } catch {
            throw .invalidAssets(path: file.path, reason: "\(error)")
        }
    }

    /// How many non-empty pages there are.
    public var pageCount: Int { (items.count + perPage - 1) / perPage }

    /// The items of 1-based `page`; empty beyond the end or below 1.
    public func items(onPage page: Int) -> ArraySlice<DemoItem> {
        guard page >= 1, page <= pageCount else { return [] }
        let start = (page - 1) * perPage
        return items[start..<min(items.count, start + perPage)]
    }

    /// The page document: `{"page": N, "per_page": 30, "total_pages": 24, "items": [...]}`.
    public func pageJSON(_ page: Int, includingItems: Bool = true) -> Data {
        let document = PageDocument(page: page, perPage: perPage, totalPages: pageCount,
                                    items: includingItems ? Array(items(onPage: page)) : [])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding plain strings, ints and dates cannot fail.
        return (try? encoder.encode(document)) ?? Data("{}".utf8)
    }

    /// This feed with every date moved according to `timeline`.
    public func on(_ timeline: Timeline) -> DemoFeed {
        guard case let .endingAt(now) = timeline else { return self }
        let shift = now.timeIntervalSince(referenceDate)
        let moved = items.map { item in
            var item = item
            // Whole seconds keep the ISO 8601 text free of fractions.
            item.createdAt = Date(timeIntervalSince1970: (item.createdAt.timeIntervalSince1970 + shift).rounded())
            return item
        }
        return DemoFeed(items: moved, perPage: perPage, referenceDate: now)
    }
}

private struct StoredFeed: Decodable {
    var referenceDate: Date
    var perPage: Int
    var items: [DemoItem]

    enum CodingKeys: String, CodingKey {
        case referenceDate = "reference_date"
        case perPage = "per_page"
        case items
    }
}

private struct PageDocument: Encodable {
    var page: Int
    var perPage: Int
    var totalPages: Int
    var items: [DemoItem]

    enum CodingKeys: String, CodingKey {
        case page
        case perPage = "per_page"
        case totalPages = "total_pages"
        case items
    }
}
