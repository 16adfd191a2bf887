import Foundation
import RiffleKit
import RiffleReading
import Synchronization

/// Whether the rules of a search match's feed hide it (`riffle search --hide`, the browser's `S`): the
/// rules of the feed as `riffle NAME` would open it, or the feeds file's own rules for a feed it no
/// longer knows, each feed's read once. From what the reading log keeps of an item, so a `.PATH:`
/// rule hides nothing here (`fieldRules` names those of the feeds looked at).
final class HideRulesByFeed: Sendable {
    private let catalogs: FeedResolver.Catalogs?
    private let rules = Mutex<[String: [HideRule]]>([:])
    private let unapplied = Mutex<[String]>([])

    /// The `.PATH:` rules of the feeds looked at so far, as written, each once: they hide nothing
    /// here, since the reading log keeps no item's JSON.
    var fieldRules: [String] { unapplied.withLock { $0 } }

    init(catalogs: FeedResolver.Catalogs?) { self.catalogs = catalogs }

    func hides(_ match: ReadingLog.Match) -> Bool {
        match.isHidden(by: rules(forFeed: match.feedName ?? match.feedTitle))
    }

    /// The rules of the feed opened as `name`.
    func rules(forFeed name: String) -> [HideRule] {
        if let known = rules.withLock({ $0[name] }) { return known }
        let found = catalogs.flatMap { try? FeedResolver.resolve(name, firstPage: nil, catalogs: $0, environment: [:], forNetwork: false).hide }
            ?? catalogs?.user.hide ?? []
        rules.withLock { $0[name] = found }
        unapplied.withLock { unapplied in
            for rule in found where rule.readsField && !unapplied.contains(rule.description) { unapplied.append(rule.description) }
        }
        return found
    }
}
