import Foundation
import RiffleKit

/// `riffle add NAME FEED`: a feed of one line in the feeds file (`"rust": "reddit:rust"`), FEED
/// being what `riffle FEED` takes (a preset, `preset:ARGUMENT`, a URL template). The file's other
/// content stays as written; a name the file has already is refused.
enum AddCommand {
    static func run(_ arguments: Arguments) throws(Arguments.UsageError) -> Int32 {
        guard arguments.positionals.count == 2 else {
            throw .init("riffle add needs a name and a feed: riffle add NAME FEED (a preset, preset:ARGUMENT or a URL)")
        }
        let message = try add(name: arguments.positionals[0], feed: arguments.positionals[1])
        print(message)
        return 0
    }

    /// Adds the feed; returns what to print.
    static func add(name: String, feed: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Arguments.UsageError) -> String {
        try FeedNames.check(name)
        let catalogs = try FeedResolver.Catalogs.load(environment: environment)
        guard catalogs.user[name] == nil else { throw .init(taken(name, in: catalogs.userFile)) }
        if feed == FeedShelf.demoName, catalogs.user[feed] == nil { throw .init(demoMessage) }
        // What `riffle FEED` would open, from the presets or a URL (not another feed of the file).
        let presetsOnly = FeedResolver.Catalogs(presets: catalogs.presets, user: FeedCatalog(), userFile: catalogs.userFile)
        _ = try FeedResolver.resolve(feed, firstPage: nil, catalogs: presetsOnly, environment: environment, forNetwork: false)
        if FeedResolver.isTemplate(feed), let parsed = try? Feed(template: feed, pagination: Pagination.implied(by: feed)) {
            if parsed.userInfo != nil {
                throw .init("a URL with a password is not written to \(catalogs.userFile) (riffle never stores one); keep it in the environment")
            }
            if let key = parsed.queryKeys.first {
                let variable = Feed.keyVariable(for: key.name, host: parsed.url(forPage: 1).host)
                throw .init("a URL with a key in it (\(key.name)) is not written to \(catalogs.userFile) (riffle never stores one): "
                    + "add \(parsed.templateWithoutKeys.template) with \"query\": {\"\(key.name)\": \"${\(variable)}\"} in the file "
                    + "(riffle inspect URL prints the entry) and the key in the environment as \(variable)")
            }
        }
        let file = FeedsFile(path: catalogs.userFile, presets: catalogs.presets)
        do {
            try file.edit { (editor) throws(FeedsFile.Problem) in
                // Checked again on the file as it is now: another `riffle add` may have just added it.
                guard editor.value(at: ["feeds", name]) == nil else { throw FeedsFile.Problem(taken(name, in: catalogs.userFile)) }
                do { try editor.set(["feeds", name], to: .string(feed)) } catch { throw FeedsFile.Problem("\(catalogs.userFile): \(error)") }
            }
        } catch {
            throw .init(error.description)
        }
        return "added '\(name)' (\(TerminalSafe.text(feed))) to \(catalogs.userFile); open it with: riffle \(name)"
    }

    /// Why the built-in demo is not added under a name: its server runs inside riffle on a port chosen
    /// each run, so an entry would have no URL to keep, and the feed list has it already.
    static let demoMessage = "the built-in demo cannot be added: it is served inside riffle on a port chosen each run, "
        + "so there is no URL to keep; open it with riffle demo"

    /// Why `name` cannot be added: `file` has a feed of that name.
    private static func taken(_ name: String, in file: String) -> String {
        "\(file) has a feed '\(name)' already: choose another name, or change it in the file"
    }
}

/// What a feed may be called in the feeds file: what `riffle NAME` can open. `riffle add`, the feed
/// list's rename and reading the file ask the same.
enum FeedNames {
    /// - Throws: a one-line message saying what is wrong with `name`.
    static func check(_ name: String) throws(Arguments.UsageError) {
        guard !name.isEmpty, name.count <= 64 else { throw .init("a feed name needs 1 to 64 characters, got \(name.count)") }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }), !name.hasPrefix("-") else {
            throw .init("a feed name may hold letters, digits and - _ . (not first -), got '\(TerminalSafe.text(name))'")
        }
        guard Arguments.Command(rawValue: name) == nil || name == Arguments.Command.browse.rawValue else {
            throw .init("'\(name)' is one of riffle's commands: choose another name")
        }
    }

    /// Checks every feed of `catalog`, read from `file`.
    /// - Throws: the first name that cannot be a feed's, in one line naming the file and the entry.
    static func check(_ catalog: FeedCatalog, file: String) throws(Arguments.UsageError) {
        for definition in catalog.definitions {
            do { try check(definition.name) } catch { throw .init("\(file): feed '\(definition.name)': \(error.description)") }
        }
    }
}
