import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// One item that matched a search.
    package struct Match: Sendable, Equatable {
        /// The feed it was listed in: its `Feed.id` and its name.
        package var feedID: String
        /// The feed's name.
        package var feedTitle: String
        /// The item's key in the log.
        package var key: String
        /// The item's title.
        package var title: String
        /// The item's author, when it has one.
        package var author: String?
        /// The item's text, plain, as filed (cut to `Configuration.textLimit`).
        package var text: String
        /// The item's link, when it has one.
        package var link: String?
        /// The item's id, when it has one.
        package var id: String?
        /// The item's own time, when it has one.
        package var createdAt: Date?
        /// When Riffle first listed it.
        package var listedAt: Date
        /// When it was seen; nil while unseen.
        package var seenAt: Date?
        /// How its feed is opened again (`FeedRef.name`: `hn`, a feeds-file name, a URL template), when
        /// the log knows (the feed was opened in the browser or dumped).
        package var feedName: String?

        /// A match with these parts.
        package init(feedID: String, feedTitle: String, key: String, title: String, author: String?, text: String,
                    link: String?, id: String?, createdAt: Date?, listedAt: Date, seenAt: Date?, feedName: String? = nil) {
            self.feedID = feedID
            self.feedTitle = feedTitle
            self.key = key
            self.title = title
            self.author = author
            self.text = text
            self.link = link
            self.id = id
            self.createdAt = createdAt
            self.listedAt = listedAt
            self.seenAt = seenAt
            self.feedName = feedName
        }

        /// Whether one of `rules` hides the item, from what the log keeps of it: its title, author and
        /// link (the log keeps no item's JSON, so a `.PATH:` rule hides nothing here).
        package func isHidden(by rules: [HideRule]) -> Bool {
            guard !rules.isEmpty else { return false }
            var item = Item(id: id, title: title, details: [], url: link, createdAt: createdAt, fields: [:])
            item.author = author
            return rules.contains { $0.matches(item) }
        }
    }

    /// The order of search results.
    package enum Order: Sendable, Equatable {
        /// The item's own time (else when it was first listed), newest first; the better match first
        /// among items of the same time.
        case newest
        /// The best match first (titles weigh most, then authors, then texts), then the newest.
        case relevance
    }

    /// The items whose title, author, text or feed name hold every word of `words` (as a word or
    /// the start of one, ignoring case and accents; in Chinese, Japanese and Korean, anywhere in a
    /// run of characters, as they put no space between words), newest first or best first (`order`).
    /// - Parameters:
    ///   - words: what to look for, in titles, authors and texts.
    ///   - feed: only this feed: its name (`Feed.name`) or id.
    ///   - order: newest first (the default) or best match first.
    ///   - limit: at most this many, the first in `order`.
    /// - Returns: nothing when `words` has no word, or when nothing was ever filed (no file is made).
    package func search(_ words: String, feed: String? = nil, order: Order = .newest, limit: Int = 100) throws(Failure) -> [Match] {
        guard Self.hasWords(words), FileManager.default.fileExists(atPath: path) else { return [] }
        let rows = try run(filing: .ifFree) { db throws(SQLiteError) in
            // A read-only log made before unspaced words were spelled apart cannot be brought up to
            // date: it is searched as it was then.
            let split = try db.isReadOnly ? !Self.lacksUnspacedColumns(db) : true
            var sql = """
                SELECT items.feed, items.feed_name, items.key, items.title, items.author, items.body, items.link, items.item_id,
                       items.created, items.listed, items.seen, feeds.name
                FROM items_search JOIN items ON items.id = items_search.rowid LEFT JOIN feeds ON feeds.id = items.feed
                WHERE items_search MATCH ?
                """
            var bindings: [SQLiteValue] = [.text(Self.matchExpression(words, splittingUnspaced: split) ?? "")]
            if let feed {
                sql += " AND (items.feed_name = ? OR items.feed = ?)"
                bindings += [.text(feed), .text(feed)]
            }
            // Titles weigh most, in either spelling.
            let relevance = "bm25(items_search, 10.0, 2.0, 1.0, 1.0\(split ? ", 10.0, 1.0" : ""))"
            let newest = "COALESCE(items.created, items.listed) DESC"
            sql += " ORDER BY " + (order == .newest ? "\(newest), \(relevance)" : "\(relevance), \(newest)") + " LIMIT ?"
            bindings.append(.int(Int64(max(0, limit))))
            return try db.execute(sql, bindings)
        }
        return rows.map { row in
            Match(feedID: row[0].text ?? "", feedTitle: row[1].text ?? "", key: row[2].text ?? "", title: row[3].text ?? "",
                  author: row[4].text.flatMap { $0.isEmpty ? nil : $0 }, text: row[5].text ?? "", link: row[6].text,
                  id: row[7].text, createdAt: row[8].double.map(Date.init(timeIntervalSince1970:)),
                  listedAt: Date(timeIntervalSince1970: row[9].double ?? 0), seenAt: row[10].double.map(Date.init(timeIntervalSince1970:)),
                  feedName: row[11].text)
        }
    }

    /// The matches in `order` up to the `limit`-th one that `counts` (what a search shows when it
    /// leaves some out, `--hide`), with the ones left out between them: the limit is of what is shown.
    /// While too few count, the index is asked again for four times as many.
    package func search(_ words: String, feed: String? = nil, order: Order = .newest, limit: Int = 100,
                        counting counts: @Sendable (Match) -> Bool) throws(Failure) -> [Match] {
        var asked = max(1, limit)
        while true {
            let found = try search(words, feed: feed, order: order, limit: asked)
            var counted = 0
            for (index, match) in found.enumerated() where counts(match) {
                counted += 1
                if counted == limit { return Array(found[...index]) }
            }
            guard found.count == asked, asked < Int.max / 4 else { return found }
            asked *= 4
        }
    }

    /// Whether `words` hold anything search can look for: a letter or a digit. Emoji, symbols and
    /// punctuation separate words and are not indexed, so `🎉` alone finds nothing, whatever is filed.
    package static func hasWords(_ words: String) -> Bool { matchExpression(words) != nil }

    /// What search says of `words` that hold no word (`hasWords`): one line, for the browser and `riffle search`.
    package static func noWordsMessage(_ words: String) -> String {
        "search looks for words: '\(words)' has no letters or digits (emoji, symbols and punctuation are not indexed)"
    }

    /// The FTS5 expression for what a person typed: each word quoted (so `AND`, `-`, `:` and quotes
    /// are plain text, never query syntax) and matched as a prefix, all words required. A word
    /// holding Chinese, Japanese or Korean characters is asked of `title_chars` and `text_chars` as
    /// its pieces in a row (東京 is the phrase 東 京, found wherever the two stand together), when
    /// `splittingUnspaced`. Nil when nothing is left to search for.
    static func matchExpression(_ words: String, splittingUnspaced: Bool = true) -> String? {
        let terms = Self.words(of: words)
        guard !terms.isEmpty else { return nil }
        func quoted(_ text: String) -> String { "\"\(text.replacingOccurrences(of: "\"", with: "\"\""))\"*" }
        return terms.map { term in
            guard splittingUnspaced, term.unicodeScalars.contains(where: isUnspaced) else { return quoted(term) }
            return "{title_chars text_chars} : " + quoted(pieces(of: term).joined(separator: " "))
        }.joined(separator: " ")
    }
}
