import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// The keys (`Item.readingKey`) of every item of the feed whose id is `feed` that was ever listed
    /// (filed by `record`), seen or not: what a refresh compares a fetched page with to say what is new.
    package func listedKeys(feed: String) throws(Failure) -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let rows = try run { db throws(SQLiteError) in
            try db.execute("SELECT key FROM items WHERE feed = ?", [.text(feed)])
        }
        return Set(rows.compactMap { $0[0].text })
    }
}
