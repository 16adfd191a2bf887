import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// A feed opened before, as the feed list shows it.
    package struct RecentFeed: Sendable, Equatable {
        /// The feed, as the log knows it.
        package var feed: FeedRef
        /// When it was last opened.
        package var openedAt: Date
    }

    /// Notes that `feed` was opened now, so the feed list can offer it again.
    package func noteOpened(_ feed: FeedRef) throws(Failure) {
        let now = clock().timeIntervalSince1970
        try run { db throws(SQLiteError) in try Self.noteOpened(feed, at: now, in: db) }
    }

    static func noteOpened(_ feed: FeedRef, at time: Double, in db: SQLiteDatabase) throws(SQLiteError) {
        try db.execute("""
            INSERT INTO feeds (id, name, title, opened) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, title = excluded.title, opened = excluded.opened
            """, [.text(feed.id), .text(feed.name), .text(feed.title), .real(time)])
    }

    /// The feeds opened before, most recent first; nothing (and no file made) when none was.
    package func openedFeeds(limit: Int = 50) throws(Failure) -> [RecentFeed] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let rows = try run { db throws(SQLiteError) in
            try db.execute("SELECT id, name, title, opened FROM feeds ORDER BY opened DESC LIMIT ?", [.int(Int64(limit))])
        }
        return rows.map { row in
            RecentFeed(feed: FeedRef(id: row[0].text ?? "", name: row[1].text ?? "", title: row[2].text ?? ""),
                       openedAt: Date(timeIntervalSince1970: row[3].double ?? 0))
        }
    }

    /// Forgets that the feed opened as `name` was opened (the feed list's "opened before"); its seen
    /// marks stay. Returns whether it was listed.
    @discardableResult
    package func forgetOpened(named name: String) throws(Failure) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let rows = try run { db throws(SQLiteError) in
            let found = try db.execute("SELECT id FROM feeds WHERE name = ?", [.text(name)])
            try db.execute("DELETE FROM feeds WHERE name = ?", [.text(name)])
            return found
        }
        return !rows.isEmpty
    }

    /// Files the feed opened as `name` under `newName` (a feed renamed in the feeds file), so the
    /// feed list shows it once, by its new name.
    package func renameOpened(_ name: String, to newName: String) throws(Failure) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try run { db throws(SQLiteError) in
            try db.execute("UPDATE feeds SET name = ? WHERE name = ?", [.text(newName), .text(name)])
        }
    }
}
