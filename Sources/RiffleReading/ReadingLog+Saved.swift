import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// An item kept for later (`f` in the browser): everything needed to list, show and open it with
    /// no network and none of its feed's pages.
    package struct SavedItem: Sendable, Equatable {
        /// The feed it was saved from: its `Feed.id`.
        package var feedID: String
        /// The feed's name, as the browser shows it.
        package var feedTitle: String
        /// The item's key in the log (`Item.readingKey`).
        package var key: String
        /// The item as it was listed, with every field the server sent.
        package var item: Item
        /// When it was saved.
        package var savedAt: Date
        /// The name its feed was last opened by (`riffle NAME`, the feed list), to open it again for
        /// the item's comments; nil when the log no longer knows it (forgotten in the feed list).
        package var feedName: String?

        /// A saved item with these parts.
        package init(feedID: String, feedTitle: String, key: String, item: Item, savedAt: Date, feedName: String? = nil) {
            self.feedID = feedID
            self.feedTitle = feedTitle
            self.key = key
            self.item = item
            self.savedAt = savedAt
            self.feedName = feedName
        }
    }

    /// Keeps `item` of `feed` for later, with its fields; saving it again keeps the first time.
    package func save(_ item: Item, feed: FeedRef) throws(Failure) {
        var fields = ""
        JSONWriter.write(item.fields, into: &fields)
        var details = ""
        JSONWriter.write(.array(item.details.map(JSONValue.string)), into: &details)
        let now = clock().timeIntervalSince1970
        try run { db throws(SQLiteError) in
            try db.execute("""
                INSERT INTO saved (feed, key, feed_title, item_id, title, details, link, author, created, score, comments, fields, saved)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (feed, key) DO UPDATE SET feed_title = excluded.feed_title, title = excluded.title,
                    details = excluded.details, link = excluded.link, author = excluded.author, created = excluded.created,
                    score = excluded.score, comments = excluded.comments, fields = excluded.fields
                """, [.text(feed.id), .text(item.readingKey), .text(feed.title), item.id.map(SQLiteValue.text) ?? .null,
                      .text(item.title), .text(details), item.url.map(SQLiteValue.text) ?? .null,
                      item.author.map(SQLiteValue.text) ?? .null, item.createdAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                      item.score.map { .int(Int64($0)) } ?? .null, item.comments.map { .int(Int64($0)) } ?? .null,
                      .text(fields), .real(now)])
        }
    }

    /// Forgets the saved item with `key` (`Item.readingKey`) of the feed whose id is `feed`; nothing
    /// when it was not saved.
    package func unsave(key: String, feed: String) throws(Failure) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try run { db throws(SQLiteError) in
            try db.execute("DELETE FROM saved WHERE feed = ? AND key = ?", [.text(feed), .text(key)])
        }
    }

    /// The keys of the feed's saved items.
    package func savedKeys(feed: String) throws(Failure) -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let rows = try run { db throws(SQLiteError) in
            try db.execute("SELECT key FROM saved WHERE feed = ?", [.text(feed)])
        }
        return Set(rows.compactMap { $0[0].text })
    }

    /// Every saved item of every feed, the last saved first; nothing (and no file made) when none was.
    package func savedItems(limit: Int = 1_000) throws(Failure) -> [SavedItem] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let rows = try run { db throws(SQLiteError) in
            try db.execute("""
                SELECT saved.feed, saved.feed_title, saved.key, saved.item_id, saved.title, saved.details, saved.link, saved.author,
                       saved.created, saved.score, saved.comments, saved.fields, saved.saved, feeds.name
                FROM saved LEFT JOIN feeds ON feeds.id = saved.feed ORDER BY saved.saved DESC, saved.rowid DESC LIMIT ?
                """, [.int(Int64(max(0, limit)))])
        }
        return rows.map { row in
            let details = (row[5].text.flatMap { try? JSONParser.parse(Data($0.utf8)) }?.arrayValue ?? []).compactMap(\.stringValue)
            let fields = row[11].text.flatMap { try? JSONParser.parse(Data($0.utf8)) } ?? .object(JSONObject())
            var item = Item(id: row[3].text, title: row[4].text ?? "", details: details, url: row[6].text,
                            createdAt: row[8].double.map(Date.init(timeIntervalSince1970:)), fields: fields)
            item.author = row[7].text
            item.score = row[9].int
            item.comments = row[10].int
            return SavedItem(feedID: row[0].text ?? "", feedTitle: row[1].text ?? "", key: row[2].text ?? "", item: item,
                             savedAt: Date(timeIntervalSince1970: row[12].double ?? 0), feedName: row[13].text)
        }
    }

    /// The saved items' table: a copy of each item, so the list needs neither its feed's pages nor the
    /// `items` table (whose oldest rows are pruned).
    static let savedSchema = [
        """
        CREATE TABLE IF NOT EXISTS saved (
            feed TEXT NOT NULL,          -- Feed.id
            key TEXT NOT NULL,           -- Item.readingKey
            feed_title TEXT NOT NULL,
            item_id TEXT,
            title TEXT NOT NULL,
            details TEXT NOT NULL,       -- a JSON array of strings
            link TEXT,
            author TEXT,
            created REAL,
            score INTEGER,
            comments INTEGER,
            fields TEXT NOT NULL,        -- the item's JSON
            saved REAL NOT NULL,
            PRIMARY KEY (feed, key)
        )
        """,
    ]
}
