import Foundation
import RiffleKit

/// What the cache holds, per feed: asked of the cache itself (its statistics and its reader), never
/// read from the folders.
enum CacheInventory {
    struct FeedUsage: Equatable {
        /// The feed's id (`Feed.id`), the owner its pages are stored under.
        var id: String
        /// The URL of its lowest stored page, from that page's metadata, when known.
        var url: String?
        var pages: Int
        var bytes: Int
    }

    /// The feeds with pages in `cache`, largest first.
    static func feeds(in cache: ResponseCache) async throws(RiffleError) -> [FeedUsage] {
        try await cache.statistics().owners.map { owner -> FeedUsage in
            let store = PageStore(cacheDirectory: cache.directory, feedID: owner.owner)
            // Shown with its `${NAME}` references as typed, not percent-encoded.
            let url = store.pages(in: cache.reader).first.flatMap { store.metadata($0, in: cache.reader)?.url }.map(Feed.showingReferences)
            return FeedUsage(id: owner.owner, url: url, pages: owner.count, bytes: owner.size)
        }.sorted { ($0.bytes, $1.id) > ($1.bytes, $0.id) }
    }

    /// `512 B`, `84.1 KB`, `12.0 MB` (powers of 1000, as `ls --si` and disk vendors count).
    static func humanSize(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return String(format: "%.1f %@", value, units[unit])
    }
}
