import Foundation
import RiffleKit
import RiffleReading
import Synchronization

/// What `riffle dump` fetched from the server, kept in the reading log as the browser files the
/// pages it shows, so `riffle search` and the browser's `S` find it and can open it again in its feed.
/// The items are staged (`ReadingLog.stage`), not indexed: the full-text index takes them when the
/// log is next read, not while the dump's requests go on. The log is opened, and the feed noted as
/// opened, only when the first page from the network arrives: a dump whose pages all come from the
/// cache does not touch `reading.sqlite` (those pages were filed when they were fetched).
///
/// The writes run one after another behind the dump; at most `limit` pages wait to be filed, and
/// past that the dump waits for the log, as it waits for a slow reader of its output (`DumpWriter`):
/// a page waiting holds its whole body and parse, so a log slower than the network never makes
/// riffle hold a whole feed in memory. A failure is said once, as a warning. `finish` waits for the rest.
final class DumpFiling: Sendable {
    private let log: ReadingLog
    private let feed: ReadingLog.FeedRef
    private let warnings: DumpWarnings
    private let writes: OrderedWork
    /// Whether a page was filed yet (the first one notes the feed opened).
    private let started = Atomic<Bool>(false)

    /// Files under `feed` (opened again as `name`: a URL's password hidden, as the browser files it).
    /// Nothing is opened yet.
    init(feed: Feed, name: String, cacheDirectory: URL, warnings: DumpWarnings, limit: Int = 4) {
        log = ReadingLog(cacheDirectory: cacheDirectory)
        let shown = FeedResolver.isTemplate(name) ? Feed.hidingCredentials(name) : name
        self.feed = ReadingLog.FeedRef(id: feed.id, name: shown, title: feed.name)
        self.warnings = warnings
        writes = OrderedWork(limit: limit)
    }

    /// Files the items of a page that came from the network (the first such page, even empty, notes
    /// the feed opened); waits first while `limit` pages are waiting to be filed.
    func record(_ items: [Item]) async {
        let first = !started.exchange(true, ordering: .relaxed)
        guard first || !items.isEmpty else { return }
        await writes.add(write { (log, feed) throws(ReadingLog.Failure) in try await log.stage(items, feed: feed, opened: first) })
    }

    /// Waits for every write asked for.
    func finish() async {
        await writes.finish()
    }

    private func write(_ body: @escaping @Sendable (ReadingLog, ReadingLog.FeedRef) async throws(ReadingLog.Failure) -> Void)
        -> @Sendable () async -> Void {
        let (log, feed, warnings) = (log, feed, warnings)
        return {
            do throws(ReadingLog.Failure) { try await body(log, feed) } catch {
                // The items are printed all the same; search will not find them. Said once.
                warnings.add("not filed for search: \(error.description)")
            }
        }
    }
}

/// Pieces of work run one after another in the order they were added, with at most `limit` of them
/// unfinished once `add` returns: adding past that waits for the oldest to finish.
final class OrderedWork: Sendable {
    private let limit: Int
    /// The pieces that may be unfinished, oldest first.
    private let running = Mutex<[Task<Void, Never>]>([])

    init(limit: Int) { self.limit = max(1, limit) }

    /// Adds `work` after every piece added before; returns once at most `limit` pieces are unfinished.
    func add(_ work: @escaping @Sendable () async -> Void) async {
        await enqueue(work)?.value
    }

    /// Adds `work`; returns the piece the caller must wait for to be back within `limit`, if any.
    func enqueue(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>? {
        running.withLock { running in
            let previous = running.last
            running.append(Task {
                await previous?.value
                await work()
            })
            return running.count > limit ? running.removeFirst() : nil
        }
    }

    /// Waits for every piece added so far.
    func finish() async {
        await running.withLock { $0.last }?.value
    }
}
