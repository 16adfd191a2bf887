import Foundation
import RiffleKit
import RiffleReading
import Synchronization

/// What `riffle dump` printed, filed in the reading log as the browser files the pages it shows
/// (`ReadingLog.noteOpened`, then `ReadingLog.record` per page), so `riffle search` and the browser's
/// `S` find it and can open it again in its feed. The writes run one after another behind the dump,
/// never holding up its output; `finish` waits for them.
final class DumpFiling: Sendable {
    private let log: ReadingLog
    private let feed: ReadingLog.FeedRef
    private let warnings: DumpWarnings
    /// The last write asked for; each waits for the one before.
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// Files under `feed` (opened again as `name`: a URL's password hidden, as the browser files it).
    init(feed: Feed, name: String, cacheDirectory: URL, warnings: DumpWarnings) {
        log = ReadingLog(cacheDirectory: cacheDirectory)
        let shown = FeedResolver.isTemplate(name) ? Feed.hidingUserInfo(name) : name
        self.feed = ReadingLog.FeedRef(id: feed.id, name: shown, title: feed.name)
        self.warnings = warnings
        enqueue { (log, feed) throws(ReadingLog.Failure) in try await log.noteOpened(feed) }
    }

    /// Files a printed page's items.
    func record(_ items: [Item]) {
        guard !items.isEmpty else { return }
        enqueue { (log, feed) throws(ReadingLog.Failure) in try await log.record(items, feed: feed) }
    }

    /// Waits for every write asked for.
    func finish() async {
        await last.withLock { $0 }?.value
    }

    private func enqueue(_ write: @escaping @Sendable (ReadingLog, ReadingLog.FeedRef) async throws(ReadingLog.Failure) -> Void) {
        let (log, feed, warnings) = (log, feed, warnings)
        last.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                do throws(ReadingLog.Failure) { try await write(log, feed) } catch {
                    // The items are printed all the same; search will not find them. Said once.
                    warnings.add("not filed for search: \(error.description)")
                }
            }
        }
    }
}
