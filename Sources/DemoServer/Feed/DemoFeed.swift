import Foundation
import RiffleAssets

/// The built-in demo feed: 720 items in pages of 30, from `Assets/demo/items.json` (compiled into
/// the binary, see `RiffleAssets`).
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

    /// Where the built-in feed comes from, under `Assets/`.
    public static let assetPath = "demo/items.json"

    /// The built-in feed, compiled into the binary from `Assets/demo/items.json`.
    public static func load() throws(DemoServerError) -> DemoFeed {
        guard let data = RiffleAssets.data(assetPath) else {
            throw .invalidAssets(path: "Assets/\(assetPath)", reason: "not compiled into this binary")
        }
        return try decode(data, path: "Assets/\(assetPath)")
    }

    /// A feed from `data` laid out like `Assets/demo/items.json`; `path` names it in errors.
    public static func decode(_ data: Data, path: String) throws(DemoServerError) -> DemoFeed {
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let stored = try decoder.decode(StoredFeed.self, from: data)
            return DemoFeed(items: stored.items, perPage: stored.perPage, referenceDate: stored.referenceDate)
        } catch {
            throw .invalidAssets(path: path, reason: "\(error)")
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
