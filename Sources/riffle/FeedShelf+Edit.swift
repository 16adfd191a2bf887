import Foundation
import RiffleBrowser
import RiffleKit
import RiffleTUI

extension FeedShelf {
    /// Renames `entry` to `name`: a feed of the feeds file has its key changed in place; a feed opened
    /// before (a preset with its argument, a URL) becomes a feed of the file by that name, and leaves
    /// the opened-before list. The reading log follows, so the list shows it once. Presets and the demo
    /// keep their names.
    func rename(_ entry: FeedEntry, to name: String) async throws(OpenFailure) -> String {
        do { try FeedNames.check(name) } catch { throw OpenFailure(error.description) }
        let (catalogs, file) = try editable(entry, doing: "renamed")
        guard name != entry.name else { return "'\(name)' keeps its name" }
        guard catalogs.user[name] == nil else {
            throw OpenFailure("\(catalogs.userFile) has a feed '\(name)' already: choose another name")
        }
        switch entry.origin {
        case .feedsFile:
            try edit(file) { (editor) throws(FeedsFile.Problem) in
                guard editor.rename(["feeds", entry.name], to: name) else {
                    throw FeedsFile.Problem("\(file.path) has no feed '\(entry.name)' any more")
                }
            }
            try? await log.renameOpened(entry.name, to: name)
            return "renamed '\(entry.name)' to '\(name)' in \(file.path)"
        default:
            if FeedResolver.isTemplate(entry.name), let feed = try? Feed(template: entry.name), feed.urlHoldsCredential {
                throw OpenFailure("a URL with a password or a key in it is not written to \(file.path) (riffle never stores one)")
            }
            try edit(file) { (editor) throws(FeedsFile.Problem) in
                do { try editor.set(["feeds", name], to: .string(entry.name)) } catch { throw FeedsFile.Problem("\(file.path): \(error)") }
            }
            _ = try? await log.forgetOpened(named: entry.name)
            return "saved '\(TerminalSafe.text(entry.name))' as '\(name)' in \(file.path)"
        }
    }

    /// Removes `entry`: a feed of the feeds file from the file (the rest as written), a feed opened
    /// before from that list (its seen marks and pages stay). Presets and the demo stay.
    func remove(_ entry: FeedEntry) async throws(OpenFailure) -> String {
        let (_, file) = try editable(entry, doing: "removed")
        switch entry.origin {
        case .feedsFile:
            try edit(file) { (editor) throws(FeedsFile.Problem) in
                guard editor.remove(["feeds", entry.name]) else { throw FeedsFile.Problem("\(file.path) has no feed '\(entry.name)' any more") }
            }
            _ = try? await log.forgetOpened(named: entry.name)
            return "removed '\(entry.name)' from \(file.path)"
        default:
            do { try await log.forgetOpened(named: entry.name) } catch { throw OpenFailure(error.description) }
            return "forgot '\(TerminalSafe.text(entry.name))' (opened before)"
        }
    }

    /// The catalogs and the feeds file, for a feed the user may change: one of the file's, or one
    /// opened before.
    private func editable(_ entry: FeedEntry, doing what: String) throws(OpenFailure) -> (FeedResolver.Catalogs, FeedsFile) {
        guard entry.origin == .feedsFile || entry.origin == .recent else {
            throw OpenFailure("'\(entry.name)' is built in and cannot be \(what)" + (entry.origin == .preset ? "; riffle add NAME \(entry.name) gives it a name of yours" : ""))
        }
        let catalogs: FeedResolver.Catalogs
        do { catalogs = try FeedResolver.Catalogs.load(environment: environment) } catch { throw OpenFailure(error.description) }
        return (catalogs, FeedsFile(path: catalogs.userFile, presets: catalogs.presets))
    }

    private func edit(_ file: FeedsFile, _ change: (inout JSONTextEditor) throws(FeedsFile.Problem) -> Void) throws(OpenFailure) {
        do { try file.edit(change) } catch { throw OpenFailure(error.description) }
    }
}
