import Foundation
import RiffleKit
import RiffleReading

/// `riffle cache path|info|clear [FEED...]`: where the cache is, what it holds, and emptying it.
///
/// A FEED is what the other commands take (a name, `preset:ARGUMENT`, a URL template) or an id that
/// `cache info` prints; naming one never needs its credentials, since no request is made.
///
/// Everything goes through the response cache, the one owner of its index and files: `info` reads
/// its statistics, `clear` asks it to remove an owner's entries or all of them (rows and the
/// regular files they name, never anything else in the folder, never the folder itself).
enum CacheCommand {
    static func run(_ arguments: Arguments) async throws(Arguments.UsageError) -> Int32 {
        guard let action = arguments.positionals.first else {
            throw .init("riffle cache needs an action: path, info or clear")
        }
        let rest = Array(arguments.positionals.dropFirst())
        let json = arguments.flags.contains("--json")
        if json && action != "info" { throw .init("option --json applies only to 'riffle cache info'") }
        if arguments.flags.contains("--yes") && action != "clear" { throw .init("option --yes applies only to 'riffle cache clear'") }
        switch action {
        case "path":
            guard rest.isEmpty else { throw .init("riffle cache path takes no feed") }
            print(CacheLocation.resolve(arguments.cacheDirectory).path)
        case "info":
            let root = try CacheLocation.checked(arguments, create: false)
            let cache = Network.cache(root)
            guard var feeds = await inventory(cache) else { return 1 }
            if !rest.isEmpty {
                let ids = try Set(rest.map { argument throws(Arguments.UsageError) in try feedID(argument, stored: feeds) })
                feeds = feeds.filter { ids.contains($0.id) }
            }
            let reading = await readingUsage(root)
            print(json ? jsonInfo(root: root, feeds: feeds, reading: reading) : textInfo(root: root, feeds: feeds, reading: reading),
                  terminator: "")
        case "clear":
            let root = try CacheLocation.checked(arguments, create: false)
            let cache = Network.cache(root)
            guard let stored = await inventory(cache) else { return 1 }
            if rest.isEmpty { return try await clearEverything(cache, feeds: stored, confirmed: arguments.flags.contains("--yes")) }
            var ids: [String] = []
            for argument in rest {
                let id = try feedID(argument, stored: stored)
                if !ids.contains(id) { ids.append(id) }
            }
            return await clear(cache, ids: ids, named: rest, stored: stored)
        default:
            throw .init("unknown cache action '\(action)' (use path, info or clear)")
        }
        return 0
    }

    /// The feeds in `cache`; nil (and a message) when its index cannot be read.
    static func inventory(_ cache: ResponseCache) async -> [CacheInventory.FeedUsage]? {
        do throws(RiffleError) {
            return try await CacheInventory.feeds(in: cache)
        } catch {
            StandardError.message("could not read the cache in \(cache.directory.path): \(error.description)")
            return nil
        }
    }

    /// The feed id `argument` stands for: an id of a stored feed as `cache info` prints it, else a
    /// feed name, `preset:ARGUMENT` or URL template.
    static func feedID(_ argument: String, stored: [CacheInventory.FeedUsage]) throws(Arguments.UsageError) -> String {
        if stored.contains(where: { $0.id == argument }) { return argument }
        do {
            return try FeedResolver.resolve(argument, firstPage: nil, forNetwork: false).id
        } catch {
            guard !stored.isEmpty, !FeedResolver.isTemplate(argument) else { throw error }
            throw .init(error.description + "; or an id from 'riffle cache info'")
        }
    }

    /// Removes the feeds `ids` through the cache itself (index rows and files together, in a
    /// transaction another riffle sharing the folder respects), and says what went.
    private static func clear(_ cache: ResponseCache, ids: [String], named: [String], stored: [CacheInventory.FeedUsage]) async -> Int32 {
        let root = cache.directory
        var output = ""
        var toRemove: [CacheInventory.FeedUsage] = []
        for (id, argument) in zip(ids, named) {
            if let usage = stored.first(where: { $0.id == id }) {
                toRemove.append(usage)
            } else {
                output += "nothing cached for \(TerminalSafe.text(argument)) (\(id))\n"
            }
        }
        if !toRemove.isEmpty {
            for usage in toRemove {
                do {
                    try await cache.removeAll(owner: usage.id, claims: PageStore.isPageFile)
                } catch {
                    print(output, terminator: "")
                    StandardError.message("could not clear \(usage.id) in \(root.path): \(error.description)")
                    return 1
                }
                output += "removed \(describe(usage))\n"
            }
        }
        print(output, terminator: "")
        return 0
    }

    /// Clears every feed and response, after asking on a terminal; `--yes` (`confirmed`) for scripts.
    private static func clearEverything(_ cache: ResponseCache, feeds: [CacheInventory.FeedUsage], confirmed: Bool)
        async throws(Arguments.UsageError) -> Int32 {
        let root = cache.directory
        let statistics: CacheStatistics
        do { statistics = try await cache.statistics() } catch {
            StandardError.message("could not read the cache in \(root.path): \(error.description)")
            return 1
        }
        let pages = feeds.reduce(0) { $0 + $1.pages }
        let bytes = statistics.totalSize
        guard statistics.entryCount > 0 else {
            print("nothing cached in \(root.path)")
            return 0
        }
        let summary = "\(count(feeds.count, "feed")), \(count(pages, "page")), \(CacheInventory.humanSize(bytes))"
        if !confirmed {
            guard isatty(STDIN_FILENO) == 1 else {
                throw .init("riffle cache clear without a feed removes everything in \(root.path); add --yes to do that without a terminal")
            }
            StandardError.write("Remove everything cached in \(root.path) (\(summary))? [y/N] ")
            let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            guard answer == "y" || answer == "yes" else {
                print("nothing removed")
                return 1
            }
        }
        do {
            try await cache.removeAll()
        } catch {
            StandardError.message("could not clear \(root.path): \(error.description)")
            return 1
        }
        print("removed everything cached in \(root.path): \(summary)")
        return 0
    }

    /// `3 feeds`, `1 page`.
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// `1a2b3c4d (3 pages, 84.1 KB) https://...`.
    static func describe(_ usage: CacheInventory.FeedUsage) -> String {
        "\(usage.id) (\(count(usage.pages, "page")), \(CacheInventory.humanSize(usage.bytes)))" + (usage.url.map { " " + TerminalSafe.text($0) } ?? "")
    }

    /// What the reading log in `root` holds, or why it cannot say; nil when there is none (none is made).
    static func readingUsage(_ root: URL) async -> Result<ReadingLog.Usage, ReadingLog.Failure>? {
        do throws(ReadingLog.Failure) {
            return try await ReadingLog(cacheDirectory: root).usage().map { .success($0) }
        } catch {
            return .failure(error)
        }
    }

    /// `reading log: 1.2 MB of 50 MB, 3 items (kept by cache clear)`.
    static func readingLine(_ reading: Result<ReadingLog.Usage, ReadingLog.Failure>?) -> String {
        switch reading {
        case nil: return "reading log: none yet\n"
        case .failure(let failure): return "reading log: \(TerminalSafe.text(failure.description))\n"
        case .success(let usage):
            return "reading log: \(CacheInventory.humanSize(usage.bytes)) of \(CacheInventory.humanSize(usage.sizeLimit)), "
                + "\(count(usage.items, "item")) (kept by cache clear)\n"
        }
    }

    static func textInfo(root: URL, feeds: [CacheInventory.FeedUsage], reading: Result<ReadingLog.Usage, ReadingLog.Failure>? = nil) -> String {
        var text = "cache: \(TerminalSafe.text(root.path))\n" + readingLine(reading)
        guard !feeds.isEmpty else { return text + "no cached feeds\n" }
        let width = feeds.map { CacheInventory.humanSize($0.bytes).count }.max() ?? 0
        for feed in feeds {
            let size = CacheInventory.humanSize(feed.bytes)
            let pages = feed.pages == 1 ? "1 page " : "\(feed.pages) pages"
            text += "\(feed.id)  \(String(repeating: " ", count: width - size.count))\(size)  \(pages)  \(TerminalSafe.text(feed.url ?? ""))\n"
        }
        let total = feeds.reduce(0) { $0 + $1.bytes }, pages = feeds.reduce(0) { $0 + $1.pages }
        return text + "total: \(CacheInventory.humanSize(total)) in \(count(pages, "page")) of \(count(feeds.count, "feed"))\n"
    }

    static func jsonInfo(root: URL, feeds: [CacheInventory.FeedUsage], reading: Result<ReadingLog.Usage, ReadingLog.Failure>? = nil) -> String {
        var text = "{\"path\":" + TerminalSafe.jsonString(root.path)
        switch reading {
        case nil: text += ",\"reading\":null"
        case .failure(let failure): text += ",\"reading\":{\"error\":" + TerminalSafe.jsonString(failure.description) + "}"
        case .success(let usage): text += ",\"reading\":{\"bytes\":\(usage.bytes),\"limit\":\(usage.sizeLimit),\"items\":\(usage.items)}"
        }
        text += ",\"bytes\":\(feeds.reduce(0) { $0 + $1.bytes }),\"pages\":\(feeds.reduce(0) { $0 + $1.pages }),\"feeds\":["
        for (i, feed) in feeds.enumerated() {
            if i > 0 { text += "," }
            text += "{\"id\":\"\(feed.id)\",\"url\":" + (feed.url.map(TerminalSafe.jsonString) ?? "null")
            text += ",\"pages\":\(feed.pages),\"bytes\":\(feed.bytes)}"
        }
        return text + "]}\n"
    }
}
