import Foundation
import RiffleKit

/// `riffle feeds`: the presets and the feeds file's feeds, one a line (name, description, URL), each
/// field through `TerminalSafe` like everything riffle prints.
enum FeedsCommand {
    static func run(_ arguments: Arguments) throws(Arguments.UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw .init("'riffle feeds' takes no arguments, got: \(arguments.positionals.joined(separator: " "))")
        }
        print(listing(try FeedResolver.Catalogs.load()), terminator: "")
        return 0
    }

    /// The text `riffle feeds` prints: each name once, a preset the feeds file redefines under the
    /// file's feeds only (that is what `riffle NAME` opens).
    static func listing(_ catalogs: FeedResolver.Catalogs) -> String {
        let replaced = catalogs.presets.definitions.filter { catalogs.user[$0.name] != nil }.map(\.name)
        var text = "Presets:\n" + table(FeedCatalog(definitions: catalogs.presets.definitions.filter { !replaced.contains($0.name) }))
        if !replaced.isEmpty { text += "  (\(replaced.joined(separator: ", ")): your feeds file's, below)\n" }
        text += "\nFeeds file \(catalogs.userFile):\n"
        text += catalogs.user.definitions.isEmpty ? "  (none; see README, \"Feeds and presets\")\n" : table(catalogs.user)
        return text + "\nOpen one with: riffle NAME (or NAME:ARGUMENT); add one with: riffle add NAME FEED\n"
    }

    private static func table(_ catalog: FeedCatalog) -> String {
        let width = catalog.definitions.map(\.usage.count).max() ?? 0
        return catalog.definitions.map { definition in
            let padding = String(repeating: " ", count: width - definition.usage.count)
            return "  \(definition.usage)\(padding)  \(TerminalSafe.text(definition.description))\n"
                + "  \(String(repeating: " ", count: width))  \(TerminalSafe.text(Feed.hidingUserInfo(definition.template)))\n"
        }.joined()
    }
}
