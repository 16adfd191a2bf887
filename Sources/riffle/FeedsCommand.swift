import Foundation
import RiffleBrowser
import RiffleKit
import RiffleReading
import RiffleTUI
import Synchronization

/// `riffle feeds`: the presets and the feeds file's feeds, one a line (name, description, URL), each
/// field through `TerminalSafe` like everything riffle prints. With `--refresh`, the feeds the feed
/// list's `R` refreshes are refreshed the same way, and what is new in each is printed (`--json`: as
/// one JSON array).
enum FeedsCommand {
    static func run(_ arguments: Arguments) async throws(Arguments.UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw .init("'riffle feeds' takes no arguments, got: \(arguments.positionals.joined(separator: " "))")
        }
        let json = arguments.flags.contains("--json")
        guard arguments.flags.contains("--refresh") else {
            if json { throw .init("option --json applies to 'riffle feeds --refresh'") }
            print(listing(try FeedResolver.Catalogs.load()), terminator: "")
            return 0
        }
        _ = try FeedResolver.Catalogs.load()
        let cacheDirectory = try CacheLocation.checked(arguments, create: true)
        // The composition root, as the browser's: one cache, one transport, one reading log.
        let shelf = FeedShelf(cache: Network.cache(cacheDirectory), transport: Network.transport(),
                              log: ReadingLog(cacheDirectory: cacheDirectory), maxAge: nil)
        let results = await refresh(shelf)
        print(json ? Self.json(results) : Self.text(results), terminator: "")
        return results.contains { $0.summary.failure != nil } ? 1 : 0
    }

    /// Refreshes what the feed list's `R` would (`FeedEntry.isRefreshable`), four at a time, in the list's order.
    static func refresh(_ shelf: FeedShelf) async -> [(name: String, summary: FeedSummary)] {
        var refreshable: [FeedEntry] = []
        for entry in await shelf.entries() where entry.isRefreshable(entry.origin == .preset ? await shelf.summary(of: entry) : nil) {
            refreshable.append(entry)
        }
        let found = Results()
        await shelf.refresh(refreshable, atOnce: 4) { name, summary in found.byName.withLock { $0[name] = summary } }
        let byName = found.byName.withLock { $0 }
        return refreshable.compactMap { entry in byName[entry.name].map { (entry.name, $0) } }
    }

    /// What the refreshes answered, by feed, as they end.
    final class Results: Sendable {
        let byName = Mutex<[String: FeedSummary]>([:])
    }

    /// One line a feed: its name, what is new, and why a refresh failed.
    static func text(_ results: [(name: String, summary: FeedSummary)]) -> String {
        guard !results.isEmpty else { return "no feeds to refresh: the feeds file has none and none was opened before\n" }
        let width = results.map(\.name.count).max() ?? 0
        return results.map { name, summary in
            let padding = String(repeating: " ", count: width - name.count)
            if let failure = summary.failure { return "\(TerminalSafe.text(name))\(padding)  failed: \(TerminalSafe.text(failure))\n" }
            let arrived = summary.arrived ?? 0
            return "\(TerminalSafe.text(name))\(padding)  \(arrived) new" + (summary.unseen.map { " · \($0) unseen" } ?? "") + "\n"
        }.joined()
    }

    /// A JSON array, a feed an element: `{"feed": NAME, "new": N, "unseen": N, "error": null}`.
    static func json(_ results: [(name: String, summary: FeedSummary)]) -> String {
        let array = JSONValue.array(results.map { name, summary in
            .object(JSONObject([
                ("feed", .string(name)),
                ("new", summary.arrived.map { .number(String($0)) } ?? .null),
                ("unseen", summary.unseen.map { .number(String($0)) } ?? .null),
                ("error", summary.failure.map(JSONValue.string) ?? .null),
            ]))
        })
        var text = ""
        JSONWriter.write(array, into: &text)
        return Sanitizer.json(text) + "\n"
    }

    /// The text `riffle feeds` prints: each name once, a preset the feeds file redefines under the
    /// file's feeds only (that is what `riffle NAME` opens).
    static func listing(_ catalogs: FeedResolver.Catalogs) -> String {
        let replaced = catalogs.presets.definitions.filter { catalogs.user[$0.name] != nil }.map(\.name)
        var text = "Presets:\n" + table(FeedCatalog(definitions: catalogs.presets.definitions.filter { !replaced.contains($0.name) }))
        if !replaced.isEmpty { text += "  (\(replaced.joined(separator: ", ")): your feeds file's, below)\n" }
        text += "\nFeeds file \(TerminalSafe.text(catalogs.userFile)):\n"
        text += catalogs.user.definitions.isEmpty ? "  (none; see README, \"Feeds and presets\")\n" : table(catalogs.user)
        return text + "\nOpen one with: riffle NAME (or NAME:ARGUMENT); add one with: riffle add NAME FEED\n"
    }

    private static func table(_ catalog: FeedCatalog) -> String {
        // A name as the feeds file spells it, which `riffle add` never writes but an editor may.
        let names = catalog.definitions.map { TerminalSafe.text($0.usage) }
        let width = names.map(\.count).max() ?? 0
        return zip(catalog.definitions, names).map { definition, name in
            let padding = String(repeating: " ", count: width - name.count)
            return "  \(name)\(padding)  \(TerminalSafe.text(definition.description))\n"
                + "  \(String(repeating: " ", count: width))  \(TerminalSafe.text(Feed.hidingCredentials(definition.template)))\n"
        }.joined()
    }
}
