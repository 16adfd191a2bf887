import Foundation
import RiffleBrowser
import RiffleKit

extension FeedShelf {
    /// Adds `rule` to the `hide` of the feeds file's entry for `feed`, opened as `name` (`x` in the
    /// browser): the file's own feed of that name, else the entry saved for that URL or preset. The
    /// rest of the file stays as written; a one-line entry (`"rust": "reddit:rust"`) becomes an object
    /// holding the same feed. A feed with no entry (a URL or a preset opened as it is, the demo) is
    /// not given one here: which name it should have is the user's to say, with `riffle add`.
    func addHideRule(_ rule: HideRule, feed: Feed?, openedAs name: String) throws(OpenFailure) -> (rules: [HideRule], message: String) {
        let catalogs: FeedResolver.Catalogs
        do { catalogs = try FeedResolver.Catalogs.load(environment: environment) } catch { throw OpenFailure(error.description) }
        let firstPage = feed.flatMap { if case .pageNumber(let first) = $0.pagination.style { first } else { nil } }
        let saved = catalogs.user.saved(name, firstPage: FeedResolver.isTemplate(name) ? firstPage : nil)
        // The built-in demo has none: it is not in the file (a feed the file calls `demo` is).
        guard let entry = catalogs.user[name]?.name ?? saved?.name else {
            // Not `riffle add NAME demo`: the demo cannot be added (`AddCommand.demoMessage`).
            if name == Self.demoName { throw OpenFailure("the built-in demo is not in feeds.json and cannot be added, so it keeps no rules") }
            throw OpenFailure("hiding needs a feeds-file entry for this feed: riffle add NAME FEED, then riffle NAME")
        }
        let file = FeedsFile(path: catalogs.userFile, presets: catalogs.presets)
        let feedPath = ["feeds", entry]
        var present = false
        do {
            try file.edit { (editor) throws(FeedsFile.Problem) in
                if let text = editor.value(at: feedPath)?.stringValue {
                    try Self.set(feedPath, to: .object(JSONObject([(text.contains("://") ? "url" : "preset", .string(text))])), in: &editor)
                }
                var rules = editor.value(at: feedPath + ["hide"])?.arrayValue ?? []
                present = rules.contains { $0.stringValue.flatMap { try? HideRule($0) } == rule }
                guard !present else { return }
                rules.append(.string(rule.description))
                try Self.set(feedPath + ["hide"], to: .array(rules), in: &editor)
            }
        } catch {
            throw OpenFailure(error.description)
        }
        let rules: [HideRule]
        do { rules = try self.feed(named: entry, forNetwork: false).hide } catch { throw OpenFailure(error.description) }
        let said = present ? "'\(entry)' hides \(rule) already" : "hiding \(rule), saved in \(catalogs.userFile) for '\(entry)'"
        return (rules, TerminalSafe.text(said))
    }
}
