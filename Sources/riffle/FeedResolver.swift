import Foundation
import RiffleKit

/// Turns what the user typed as FEED into a `Feed`: a URL template (`https://…{page}…`), a preset (`hn`),
/// a preset with its argument (`github:apple/swift`), or a name from the feeds file. The feeds file wins
/// over a preset of the same name, so a user can adjust a preset by copying it.
enum FeedResolver {
    /// The presets and the user's feeds, and where the latter came from.
    struct Catalogs {
        var presets: FeedCatalog
        var user: FeedCatalog
        var userFile: String

        /// Reads the shipped presets and the feeds file (absent is fine, broken is an error).
        static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Arguments.UsageError) -> Catalogs {
            let location = FeedsFileLocation.resolve(environment: environment)
            let presets: FeedCatalog
            do { presets = try PresetAssets.catalog(environment: environment) } catch { throw .init(error.description) }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isFolder) else {
                return Catalogs(presets: presets, user: FeedCatalog(), userFile: location.path)
            }
            // There but unusable is an error, never silently no feeds.
            guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: location.path) else {
                throw .init("\(location.path): \(isFolder.boolValue ? "a folder, not a file" : "not readable")")
            }
            let user: FeedCatalog
            do { user = try FeedCatalog.parse(data, file: location.path, presets: presets) } catch { throw .init(error.description) }
            try FeedNames.check(user, file: location.path)
            return Catalogs(presets: presets, user: user, userFile: location.path)
        }
    }

    /// - Parameter forNetwork: false when the feed is only named (to clear or describe its pages):
    ///   then the environment variables its requests need may be unset.
    static func resolve(_ argument: String, firstPage: Int?, forNetwork: Bool = true) throws(Arguments.UsageError) -> Feed {
        let environment = ProcessInfo.processInfo.environment
        // The name the browser's feed list gives the built-in demo opens it here too (`riffle dump demo`).
        if DemoFeedCommand.isBuiltIn(argument, environment: environment) {
            return try DemoFeedCommand.feed(firstPage: firstPage, forNetwork: forNetwork)
        }
        // A URL needs the catalogs only for what the feeds file keeps of it (a field pick): with no
        // feeds file, the presets are not parsed, which was a sixth of a cached first frame's work.
        if isTemplate(argument), !FileManager.default.fileExists(atPath: FeedsFileLocation.resolve(environment: environment).path) {
            return try template(argument, firstPage: firstPage, forNetwork: forNetwork)
        }
        return try resolve(argument, firstPage: firstPage, catalogs: Catalogs.load(environment: environment),
                           environment: environment, forNetwork: forNetwork)
    }

    /// Resolves `argument` against `catalogs`; `forNetwork`: checks that every environment variable
    /// its headers and query need is set.
    static func resolve(_ argument: String, firstPage: Int?, catalogs: Catalogs,
                        environment: [String: String], forNetwork: Bool = true) throws(Arguments.UsageError) -> Feed {
        // What the feeds file keeps for the same pages (a pick of the field picker) is what opens.
        if let saved = catalogs.user.saved(argument, firstPage: firstPage), saved.name != argument {
            return try resolve(saved.name, firstPage: nil, catalogs: catalogs, environment: environment, forNetwork: forNetwork)
        }
        if isTemplate(argument) {
            var feed = try template(argument, firstPage: firstPage, forNetwork: forNetwork)
            feed.hide = catalogs.user.hide
            return feed
        }
        let name = argument.split(separator: ":", maxSplits: 1).first.map(String.init) ?? argument
        let value = argument.contains(":") ? String(argument.drop { $0 != ":" }.dropFirst()) : nil
        guard let definition = catalogs.user[name] ?? catalogs.presets[name] else {
            throw .init(unknownMessage(argument, catalogs: catalogs))
        }
        var feed: Feed
        do { feed = try definition.feed(argument: value) } catch { throw .init(error.description) }
        // The file's rules hide items of every feed, a preset's too; the feed's own follow.
        feed.hide = catalogs.user.hide + feed.hide
        if let firstPage {
            guard case .pageNumber = feed.pagination.style else {
                throw .init("option --first-page applies only to page-numbered feeds; '\(name)' is not one")
            }
            feed.firstPage = firstPage
        }
        guard forNetwork else { return feed }
        // Checked now so a missing token is reported before the terminal is taken over; the values are dropped.
        do {
            _ = try feed.expandedHeaders(environment: environment)
            try feed.checkQueryEnvironment(environment)
        } catch {
            throw .init("feed '\(name)': \(error.description)")
        }
        // A URL copied from riffle's listings into the file: asking with `***` would only be refused.
        if let key = feed.missingQueryKeys.first {
            throw .init("feed '\(name)': its url says \(key)=***, a key riffle hid and never kept: give it as \"query\": {\"\(key)\": \"${NAME}\"} with the key in the environment")
        }
        return feed
    }

    /// A URL rather than a name: names never contain "://".
    static func isTemplate(_ argument: String) -> Bool { argument.contains("://") }

    /// The feed of a URL template; `forNetwork`: one whose password riffle hid (a URL copied from its
    /// listings) is an error, since it would be asked for without it.
    private static func template(_ argument: String, firstPage: Int?, forNetwork: Bool) throws(Arguments.UsageError) -> Feed {
        let feed: Feed
        if firstPage != nil, !argument.contains(Feed.pagePlaceholder) {
            throw .init("--first-page needs a URL with {page} where the page number goes")
        }
        do { feed = try Feed(template: argument, pagination: Pagination.implied(by: argument, firstPage: firstPage ?? 1)) } catch {
            throw .init(error.description)
        }
        if forNetwork, feed.isMissingPassword {
            throw .init("the password of \(feed.template) is not kept (riffle never stores one): give the URL with its password")
        }
        if forNetwork, let name = feed.missingQueryKeys.first {
            throw .init("the \(name) of \(feed.template) is not kept (riffle never stores a key written in a URL): give the URL with its key, "
                + "or keep the key in the environment (a feeds-file entry's \"query\": {\"\(name)\": \"${NAME}\"})")
        }
        return feed
    }

    /// "unknown feed 'x'; presets: hn, lobsters, github:OWNER/REPO…; feeds file: a, b".
    static func unknownMessage(_ argument: String, catalogs: Catalogs) -> String {
        var message = "unknown feed '\(argument)'; presets: " + catalogs.presets.definitions.map(\.usage).joined(separator: ", ")
        message += catalogs.user.definitions.isEmpty ? "; no feeds in \(catalogs.userFile)"
            : "; feeds file: " + catalogs.user.definitions.map(\.usage).joined(separator: ", ")
        return message + " (or give a URL)"
    }
}

extension FeedCatalog {
    /// The feed of this file that stands for `argument` when `argument` is not one of its names: the
    /// one whose URL it is, or that names it as its preset (`reddit:rust`, `hn`). Such an entry is
    /// where the field picker saves its picks for a feed opened by URL or preset, so opening the feed
    /// the same way again reads it as picked.
    /// - Parameter firstPage: `--first-page`, which a URL's entry must have too.
    func saved(_ argument: String, firstPage: Int?) -> FeedDefinition? {
        if FeedResolver.isTemplate(argument) {
            return definitions.last { definition in
                definition.argument == nil && definition.preset == nil && definition.template == argument
                    && definition.pagination == Pagination.implied(by: argument, firstPage: firstPage ?? 1)
            }
        }
        let name = argument.split(separator: ":", maxSplits: 1).first.map(String.init) ?? argument
        guard firstPage == nil, self[name] == nil else { return nil }
        return definitions.last { $0.argument == nil && $0.preset == argument }
    }
}
