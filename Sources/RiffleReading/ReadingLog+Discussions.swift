import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// What the log remembers of the last visit to an item's discussion.
    package struct DiscussionVisit: Sendable, Equatable {
        /// The time of the newest comment the thread had then (the server's clock); nil when its
        /// comments carried no time.
        package var newest: Date?
    }

    /// Discussions remembered; past this the ones visited longest ago go.
    static let maxDiscussions = 10_000

    /// Notes a visit to the discussion of the item `key` of `feed` whose newest comment was written
    /// at `newest`, and answers the visit before it (nil on a first visit). Comments written after
    /// that visit's newest are the ones new since: told by the server's clock alone, and one row an
    /// item, whatever the thread's size.
    package func noteDiscussion(feed: String, key: String, newest: Date?) throws(Failure) -> DiscussionVisit? {
        let now = clock().timeIntervalSince1970
        return try run { db throws(SQLiteError) -> DiscussionVisit? in
            let row = try db.execute("SELECT newest FROM discussions WHERE feed = ? AND key = ?", [.text(feed), .text(key)]).first
                let before = row.map { DiscussionVisit(newest: $0[0].double.map(Date.init(timeIntervalSince1970:))) }
                let kept = [before?.newest, newest].compactMap { $0 }.max()
                try db.execute("""
                    INSERT INTO discussions (feed, key, newest, visited) VALUES (?, ?, ?, ?)
                    ON CONFLICT (feed, key) DO UPDATE SET newest = excluded.newest, visited = excluded.visited
                    """, [.text(feed), .text(key), kept.map { .real($0.timeIntervalSince1970) } ?? .null, .real(now)])
                try db.execute("""
                    DELETE FROM discussions WHERE rowid IN (SELECT rowid FROM discussions ORDER BY visited ASC
                        LIMIT MAX(0, (SELECT COUNT(*) FROM discussions) - ?))
                    """, [.int(Int64(Self.maxDiscussions))])
                return before
        }
    }
}
