import Foundation
import RiffleBrowser
import RiffleKit
import RiffleTUI

extension FeedShelf {
    /// Saves the field picker's `pick` in the feeds file, in the entry of the feed opened as `name`:
    /// the file's own feed of that name, else the entry saved before for that URL or preset, else a
    /// new one (`{"url": ...}` for a URL, `{"preset": "reddit:rust"}` for a preset) named after it.
    /// Picking "automatic" takes the part out of the entry's `fields` (or, when its preset names the
    /// part, writes `null` there, so it is found again).
    func pin(_ pick: FieldPick, feed: Feed?, openedAs name: String) throws(OpenFailure) -> PinnedFields {
        let catalogs: FeedResolver.Catalogs
        do { catalogs = try FeedResolver.Catalogs.load(environment: environment) } catch { throw OpenFailure(error.description) }
        // The built-in demo; a feed the file calls `demo` is the file's, and opens in its place.
        guard name != Self.demoName || catalogs.user[name] != nil else {
            throw OpenFailure("the demo feed is not kept in feeds.json; open a feed by its URL to keep what you pick")
        }
        let file = FeedsFile(path: catalogs.userFile, presets: catalogs.presets)
        let firstPage = feed.flatMap { if case .pageNumber(let first) = $0.pagination.style { first } else { nil } }
        let existing = catalogs.user[name] ?? catalogs.user.saved(name, firstPage: FeedResolver.isTemplate(name) ? firstPage : nil)
        let entry: String
        var fresh: [(key: String, value: JSONValue)] = []
        if let existing {
            entry = existing.name
        } else if FeedResolver.isTemplate(name) {
            guard let feed, !feed.urlHoldsCredential else {
                throw OpenFailure("a URL with a password or a key in it is not saved to feeds.json (riffle never stores one); add the feed by hand")
            }
            entry = Self.freshName(Self.nameOfURL(feed), in: catalogs.user)
            fresh = [("url", .string(feed.template))]
            if feed.pagination != Pagination(.pageNumber(firstPage: 1)) { fresh.append(("pagination", InspectReport.json(feed.pagination))) }
        } else if catalogs.presets[String(name.split(separator: ":", maxSplits: 1).first ?? "")] != nil {
            entry = Self.freshName(InspectReport.key(name), in: catalogs.user)
            fresh = [("preset", .string(name))]
        } else {
            throw OpenFailure("'\(name)' is not in \(catalogs.userFile) any more: its pick was not saved")
        }
        let presetFields = (existing?.preset ?? (fresh.first?.key == "preset" ? name : nil)).flatMap { reference in
            catalogs.presets[String(reference.split(separator: ":", maxSplits: 1).first ?? "")]?.fields
        }
        let presetNames: Bool
        if let presetFields {
            presetNames = pick.part.planPart.map { presetFields[$0] != nil } ?? !presetFields.subtitle.isEmpty
        } else {
            presetNames = false
        }
        let value: JSONValue? = switch pick.path {
        case let path? where pick.part == .subtitle: .array([.string(path.description)])
        case let path?: .string(path.description)
        case nil: presetNames ? .null : nil
        }
        let feedPath = ["feeds", entry]
        do {
            try file.edit { (editor) throws(FeedsFile.Problem) in
                if !fresh.isEmpty {
                    // Nothing to keep for a feed the file does not hold: no entry is made.
                    guard let value else { return }
                    try Self.set(feedPath, to: .object(JSONObject(fresh + [("fields", .object(JSONObject([(pick.part.rawValue, value)])))])), in: &editor)
                    return
                }
                if let text = editor.value(at: feedPath)?.stringValue {
                    // The one-line form becomes an object holding the same feed.
                    try Self.set(feedPath, to: .object(JSONObject([(text.contains("://") ? "url" : "preset", .string(text))])), in: &editor)
                }
                let part = feedPath + ["fields", pick.part.rawValue]
                if let value {
                    try Self.set(part, to: value, in: &editor)
                } else {
                    editor.remove(part)
                    if editor.value(at: feedPath + ["fields"])?.objectValue?.count == 0 { editor.remove(feedPath + ["fields"]) }
                }
            }
        } catch {
            throw OpenFailure(error.description)
        }
        let fields: FieldMapping
        do { fields = try self.feed(named: entry, forNetwork: false).fields } catch { throw OpenFailure(error.description) }
        let what = pick.path.map { "`\($0)`" } ?? "automatic"
        return PinnedFields(fields: fields, message: "\(pick.part.rawValue): \(what), saved in \(catalogs.userFile) as '\(entry)'")
    }

    static func set(_ path: [String], to value: JSONValue, in editor: inout JSONTextEditor) throws(FeedsFile.Problem) {
        do { try editor.set(path, to: value) } catch { throw FeedsFile.Problem("\(error)") }
    }

    /// A name for a URL's feed: its host without `www.` or `api.`, and the path's first word.
    static func nameOfURL(_ feed: Feed) -> String {
        let url = feed.url(forPage: 1)
        var host = url.host ?? "feed"
        for prefix in ["www.", "api."] where host.hasPrefix(prefix) { host.removeFirst(prefix.count) }
        let word = url.path.split(separator: "/").first { $0.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" } && !["api", "v1", "v2", "v3"].contains($0) }
        return InspectReport.key(word.map { "\(host)-\($0)" } ?? host)
    }

    /// `base`, or `base-2`, `base-3`... when the file already has a feed of that name.
    static func freshName(_ base: String, in catalog: FeedCatalog) -> String {
        guard catalog[base] != nil else { return base }
        var n = 2
        while catalog["\(base)-\(n)"] != nil { n += 1 }
        return "\(base)-\(n)"
    }
}
