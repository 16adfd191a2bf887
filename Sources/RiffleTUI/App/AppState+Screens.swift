import Foundation
import RiffleKit

/// One feed in the feed list.
public struct FeedEntry: Sendable, Equatable, Hashable {
    /// Where the list found it.
    public enum Origin: Sendable, Hashable {
        /// The user's feeds file.
        case feedsFile
        /// A preset.
        case preset
        /// Opened before (a preset with its argument, a URL).
        case recent
        /// The built-in demo.
        case demo
    }

    /// How it is opened: `hn`, `github:apple/swift`, a URL template; `reddit` for a feed that
    /// still needs its argument.
    public var name: String
    /// One line saying what it is.
    public var description: String
    /// What its argument is (`SUBREDDIT`) when one must be typed before opening it.
    public var argument: String?
    public var origin: Origin

    public init(name: String, description: String, argument: String? = nil, origin: Origin) {
        self.name = name
        self.description = description
        self.argument = argument
        self.origin = origin
    }
}

/// What the feed list knows of a feed's stored pages.
public struct FeedSummary: Sendable, Equatable {
    /// Items on the stored pages not seen yet; nil when it has no stored pages.
    public var unseen: Int?
    /// When its first page was last fetched; nil when never.
    public var fetchedAt: Date?

    public init(unseen: Int?, fetchedAt: Date?) {
        self.unseen = unseen
        self.fetchedAt = fetchedAt
    }
}

/// The feed list (`F`, and at start when the feeds file has feeds).
public struct FeedListState: Sendable, Equatable {
    /// The feeds; nil until they are listed.
    public var entries: [FeedEntry]?
    /// What is known of each, by name.
    public var summaries: [String: FeedSummary] = [:]
    public var selection = 0
    public var scroll = 0

    public init(entries: [FeedEntry]? = nil) { self.entries = entries }

    public var selectedEntry: FeedEntry? {
        guard let entries, entries.indices.contains(selection) else { return nil }
        return entries[selection]
    }
}

/// The results of `S`: items from every feed, found in the reading log.
public struct SearchState: Sendable, Equatable {
    public var query: String
    /// The matches; nil while the search runs.
    public var matches: [ReadingLog.Match]?
    /// Why the search failed, if it did.
    public var failure: String?
    public var selection = 0
    public var scroll = 0

    public init(query: String) { self.query = query }

    /// The matches as items the list and the detail can show.
    public var items: [Item] { (matches ?? []).map(SearchState.item) }

    /// A match as an item: its feed and author as details, every stored field as its fields.
    static func item(_ match: ReadingLog.Match) -> Item {
        var fields: [(key: String, value: JSONValue)] = [("feed", .string(match.feedTitle)), ("title", .string(match.title))]
        if let author = match.author { fields.append(("author", .string(author))) }
        if let link = match.link { fields.append(("link", .string(link))) }
        if let id = match.id { fields.append(("id", .string(id))) }
        if !match.text.isEmpty { fields.append(("text", .string(match.text))) }
        fields.append(("seen", .bool(match.seenAt != nil)))
        var item = Item(id: match.id, title: match.title, details: [match.feedTitle] + (match.author.map { [$0] } ?? []),
                        url: match.link, createdAt: match.createdAt ?? match.listedAt, fields: .object(JSONObject(fields)))
        item.author = match.author
        return item
    }
}
