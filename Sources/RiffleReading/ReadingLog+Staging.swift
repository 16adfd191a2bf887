import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// Keeps `items` of `feed` for search without indexing them now: `riffle dump`'s way of filing
    /// what it fetches, so SQLite's full-text index is not built while the requests go on. The items
    /// are appended, one transaction, to a plain table (`staged`: no unique key, no triggers) and are
    /// filed in `items` as `record` files them (new ones listed when staged, known ones keeping when
    /// they were first listed and whether they were seen) by the next call that uses the log, before
    /// it reads or writes anything (`run`): whoever searches or lists first pays for the index.
    ///
    /// With `opened`, also notes that `feed` was opened (`noteOpened`), in the same transaction.
    ///
    /// Staged items are bounded: once more than `Configuration.maxStaged` are waiting, or the log's
    /// pages in use pass the size limit's trimming mark, this call files them itself (and trims).
    package func stage(_ items: [Item], feed: FeedRef, opened: Bool = false) throws(Failure) {
        guard !items.isEmpty || opened else { return }
        let now = clock().timeIntervalSince1970
        let entries = items.map { Entry($0, textLimit: configuration.textLimit) }
        let feedTitle = Entry.cut(feed.title, to: Entry.nameLimit)
        let (maxStaged, sizeLimit) = (configuration.maxStaged, configuration.sizeLimit)
        try run(filing: .none) { db throws(SQLiteError) in
            // Waits longer than other writes: a reader filing staged items takes the lock batch after
            // batch for up to seconds (20,000 items), and a page waiting here holds up no printing.
            try db.writing(wait: 10_000) { () throws(SQLiteError) in
                if opened { try Self.noteOpened(feed, at: now, in: db) }
                for entry in entries {
                    try db.execute("INSERT INTO staged (\(Self.itemColumns)) VALUES (\(Self.itemPlaceholders))",
                                   entry.values(feed: feed.id, feedTitle: feedTitle, listed: now))
                }
            }
            // Rows are appended with the next id and deleted oldest first (once all are, ids start
            // again at 1), so the last id counts the rows staged since the log was last read.
            let waiting = try db.execute("SELECT MAX(id) FROM staged").first?[0].int ?? 0
            let used = try Self.usedBytes(db)
            if waiting > maxStaged || used > sizeLimit / 5 * 3 {
                try fileStaged(db)
            }
        }
    }

    /// Files the staged items in `items`, as `record` files them, oldest first, then trims the log
    /// to its size limit; nothing when none is staged. `filingBatch` items a transaction (an upsert
    /// of the oldest staged rows, then those rows deleted): a reader of the log files whatever is
    /// left before it reads, so none sees some staged items and not others, and the write-ahead log,
    /// which counts against the size limit, holds one batch rather than a whole dump (10,000 items
    /// and their index are 27 MB), while the pages the deleted rows free take the next batch.
    func fileStaged(_ db: SQLiteDatabase, wait: Int32 = 1_000) throws(SQLiteError) {
        guard try !db.execute("SELECT 1 FROM staged LIMIT 1").isEmpty else { return }
        do {
            // The rows filed need not be overwritten as they go (SQLite's secure delete, on where it is
            // built so, as on Debian): their text is in `items` now. Zeroing them was 3 in 10 of the pages
            // written and half the disk syncs of filing 10,000 items.
            let secure = try db.execute("PRAGMA secure_delete").first?[0].int ?? 0
            try db.execute("PRAGMA secure_delete=0")
            defer { _ = try? db.execute("PRAGMA secure_delete=\(secure)") }
            var more = true
            while more {
                try db.writing(wait: wait) { () throws(SQLiteError) in
                    // Rows are deleted oldest first, so the oldest id starts an unbroken run.
                    guard let first = try db.execute("SELECT MIN(id) FROM staged").first?[0].int else {
                        more = false
                        return
                    }
                    let last = SQLiteValue.int(Int64(first + Self.filingBatch - 1))
                    // A SELECT before an upsert needs its WHERE (else `ON CONFLICT` would read as a join's `ON`).
                    try db.execute("""
                        INSERT INTO items (\(Self.itemColumns)) SELECT \(Self.itemColumns) FROM staged WHERE id <= ? ORDER BY id
                        \(Self.upsert)
                        """, [last])
                    try db.execute("DELETE FROM staged WHERE id <= ?", [last])
                }
            }
        }
        // Once all are filed (secure delete as it was): trimming counts the pages in use, staged rows
        // too, and deletes only items.
        try trimToLimit(db)
    }

    /// Staged items filed in one transaction.
    static let filingBatch = 250

    /// The columns `record` and `stage` write, in `Entry.values`' order.
    static let itemColumns = "feed, key, feed_name, title, author, body, link, item_id, created, listed, title_chars, text_chars"

    /// A `?` for each of `itemColumns`.
    static let itemPlaceholders = Array(repeating: "?", count: itemColumns.split(separator: ",").count).joined(separator: ", ")

    /// How an item filed again changes the one filed before: its text, title, link and times (not when
    /// it was first listed, nor whether it was seen), and only when one of them changed, so an
    /// unchanged item does not touch the full-text index.
    static let upsert = """
        ON CONFLICT (feed, key) DO UPDATE SET feed_name = excluded.feed_name, title = excluded.title,
            author = excluded.author, body = excluded.body, link = excluded.link, item_id = excluded.item_id,
            created = excluded.created, title_chars = excluded.title_chars, text_chars = excluded.text_chars
        WHERE feed_name IS NOT excluded.feed_name OR title IS NOT excluded.title OR author IS NOT excluded.author
            OR body IS NOT excluded.body OR link IS NOT excluded.link OR created IS NOT excluded.created
        """

    /// Items a dump filed and nobody has read since: `items`' columns, in the order staged (`id`).
    static let stagedSchema = [
        """
        CREATE TABLE IF NOT EXISTS staged (
            id INTEGER PRIMARY KEY,
            feed TEXT NOT NULL,
            key TEXT NOT NULL,
            feed_name TEXT NOT NULL,
            title TEXT NOT NULL,
            author TEXT NOT NULL,
            body TEXT NOT NULL,
            link TEXT,
            item_id TEXT,
            created REAL,
            listed REAL NOT NULL,
            title_chars TEXT NOT NULL DEFAULT '',
            text_chars TEXT NOT NULL DEFAULT ''
        )
        """,
    ]
}
