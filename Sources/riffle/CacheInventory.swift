import Foundation
import RiffleKit

/// What the cache holds, per feed: read from the folders on disk.
///
/// `feeds(in:)` is the one function to switch to the response cache's statistics once it has them.
enum CacheInventory {
    struct FeedUsage: Equatable {
        /// The feed's folder name (`Feed.id`).
        var id: String
        /// The URL of its lowest stored page, from that page's metadata, when known.
        var url: String?
        var pages: Int
        var bytes: Int
    }

    /// The feeds with a folder of pages in the cache at `root` (`PageStore.feedIDs`), largest first.
    static func feeds(in root: URL) -> [FeedUsage] {
        PageStore.feedIDs(in: root).compactMap { id -> FeedUsage? in
            let store = PageStore(cacheDirectory: root, feedID: id)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: store.directory.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
            let pages = store.storedPages()
            let url = pages.first.flatMap { store.read($0)?.metadata?.url }
            return FeedUsage(id: id, url: url, pages: pages.count, bytes: size(of: store.directory))
        }.sorted { ($0.bytes, $1.id) > ($1.bytes, $0.id) }
    }

    /// Bytes in the files under `folder` (not following links).
    static func size(of folder: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total = 0
        for case let file as URL in walker {
            let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += values?.fileSize ?? 0 }
        }
        return total
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
