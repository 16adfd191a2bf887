import Foundation
import RiffleKit

/// `riffle cache path|info|clear [FEED]`: where the cache is, what it holds, and emptying it.
enum CacheCommand {
    /// The folders under the cache root that Riffle owns. `clear` removes only these, never the
    /// root itself: `--cache-dir` may point at a folder that also holds other things.
    static let ownedFolders = ["feeds", "responses"]

    static func run(_ arguments: Arguments) async throws(Arguments.UsageError) -> Int32 {
        let root = CacheLocation.resolve(arguments.cacheDirectory)
        guard let action = arguments.positionals.first else {
            throw .init("riffle cache needs an action: path, info or clear")
        }
        let rest = Array(arguments.positionals.dropFirst())
        let json = arguments.flags.contains("--json")
        switch action {
        case "path":
            guard rest.isEmpty else { throw .init("riffle cache path takes no feed") }
            print(root.path)
        case "info":
            guard rest.count <= 1 else { throw .init("riffle cache info takes at most one feed") }
            var feeds = CacheInventory.feeds(in: root)
            if let feed = rest.first {
                let id = try FeedResolver.resolve(feed, firstPage: nil).id
                feeds = feeds.filter { $0.id == id }
            }
            print(json ? jsonInfo(root: root, feeds: feeds) : textInfo(root: root, feeds: feeds), terminator: "")
        case "clear":
            guard rest.count <= 1 else { throw .init("riffle cache clear takes at most one feed") }
            return await clear(root: root, feed: try rest.first.map { feed throws(Arguments.UsageError) in try FeedResolver.resolve(feed, firstPage: nil) })
        default:
            throw .init("unknown cache action '\(action)' (use path, info or clear)")
        }
        return 0
    }

    /// Clears through the cache itself, so its index and the page files change together (rows and
    /// files of one feed, or everything), in a transaction another riffle sharing the folder respects.
    private static func clear(root: URL, feed: Feed?) async -> Int32 {
        guard ownedFolders.contains(where: { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }) else { return 0 }
        let cache = ResponseCache(directory: root)
        do {
            if let feed { try await cache.removeFeed(feed.id) } else { try await cache.removeAll() }
        } catch {
            FileHandle.standardError.write(Data("riffle: could not clear \(root.path): \(error)\n".utf8))
            return 1
        }
        return 0
    }

    static func textInfo(root: URL, feeds: [CacheInventory.FeedUsage]) -> String {
        var text = "cache: \(root.path)\n"
        guard !feeds.isEmpty else { return text + "no cached feeds\n" }
        let width = feeds.map { CacheInventory.humanSize($0.bytes).count }.max() ?? 0
        for feed in feeds {
            let size = CacheInventory.humanSize(feed.bytes)
            let pages = feed.pages == 1 ? "1 page " : "\(feed.pages) pages"
            text += "\(feed.id)  \(String(repeating: " ", count: width - size.count))\(size)  \(pages)  \(feed.url ?? "")\n"
        }
        let total = feeds.reduce(0) { $0 + $1.bytes }, pages = feeds.reduce(0) { $0 + $1.pages }
        return text + "total: \(CacheInventory.humanSize(total)) in \(pages) \(pages == 1 ? "page" : "pages") of "
            + "\(feeds.count) \(feeds.count == 1 ? "feed" : "feeds")\n"
    }

    static func jsonInfo(root: URL, feeds: [CacheInventory.FeedUsage]) -> String {
        var text = "{\"path\":"
        JSONWriter.writeString(root.path, into: &text)
        text += ",\"bytes\":\(feeds.reduce(0) { $0 + $1.bytes }),\"pages\":\(feeds.reduce(0) { $0 + $1.pages }),\"feeds\":["
        for (i, feed) in feeds.enumerated() {
            if i > 0 { text += "," }
            text += "{\"id\":\"\(feed.id)\",\"url\":"
            if let url = feed.url { JSONWriter.writeString(url, into: &text) } else { text += "null" }
            text += ",\"pages\":\(feed.pages),\"bytes\":\(feed.bytes)}"
        }
        return text + "]}\n"
    }
}
