import Foundation
import RiffleKit

/// `riffle cache path|info|clear [FEED]`: where the cache is, what it holds, and emptying it.
enum CacheCommand {
    /// The folders under the cache root that Riffle owns. `clear` removes only these, never the
    /// root itself: `--cache-dir` may point at a folder that also holds other things.
    static let ownedFolders = ["feeds", "responses"]

    static func run(_ arguments: Arguments) throws(Arguments.UsageError) -> Int32 {
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
            return clear(root: root, feed: try rest.first.map { feed throws(Arguments.UsageError) in try FeedResolver.resolve(feed, firstPage: nil) })
        default:
            throw .init("unknown cache action '\(action)' (use path, info or clear)")
        }
        return 0
    }

    private static func clear(root: URL, feed: Feed?) -> Int32 {
        let targets = feed.map { [PageStore(cacheDirectory: root, feedID: $0.id).directory] }
            ?? ownedFolders.map { root.appendingPathComponent($0, isDirectory: true) }
        var status: Int32 = 0
        for folder in targets where FileManager.default.fileExists(atPath: folder.path) {
            do { try FileManager.default.removeItem(at: folder) } catch {
                FileHandle.standardError.write(Data("riffle: could not remove \(folder.path): \(error.localizedDescription)\n".utf8))
                status = 1
            }
        }
        return status
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
        JSONText.appendString(root.path, to: &text)
        text += ",\"bytes\":\(feeds.reduce(0) { $0 + $1.bytes }),\"pages\":\(feeds.reduce(0) { $0 + $1.pages }),\"feeds\":["
        for (i, feed) in feeds.enumerated() {
            if i > 0 { text += "," }
            text += "{\"id\":\"\(feed.id)\",\"url\":"
            if let url = feed.url { JSONText.appendString(url, to: &text) } else { text += "null" }
            text += ",\"pages\":\(feed.pages),\"bytes\":\(feed.bytes)}"
        }
        return text + "]}\n"
    }
}
