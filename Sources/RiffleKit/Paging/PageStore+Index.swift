import Foundation
import Synchronization

/// A `PageStore`'s connection to the cache's index, opened on first use and shared by the store's
/// copies. A missing index is not created by a read (a lookup in a new cache creates nothing); an
/// index that cannot be opened is tried again after a few seconds, not on every read.
final class PageIndex: Sendable {
    let root: URL
    let indexPath: String
    let log: @Sendable (String) -> Void
    private struct State {
        var disk: DiskCache?
        var failedAt: ContinuousClock.Instant?
    }
    // Safe: `DiskCache` is only ever used inside this lock.
    private let state = Mutex<State>(State())

    init(root: URL, log: @escaping @Sendable (String) -> Void) {
        self.root = root
        self.log = log
        indexPath = DiskCache.folder(root).appendingPathComponent(DiskCache.indexName).path
    }

    /// Runs `body` with the index; nil when there is none (or it cannot be opened). `create` makes
    /// the folders and the index when missing.
    func withDisk<T: Sendable>(create: Bool = false, _ body: (DiskCache) throws(RiffleError) -> T) throws(RiffleError) -> T? {
        try state.withLock { state throws(RiffleError) -> T? in
            if state.disk == nil {
                if let failedAt = state.failedAt, failedAt.duration(to: .now) < .seconds(5), !create { return nil }
                guard create || FileManager.default.fileExists(atPath: indexPath) else { return nil }
                do throws(RiffleError) {
                    state.disk = try DiskCache(root: root, sizeLimit: ResponseCache.Configuration().sizeLimit,
                                               inlineLimit: ResponseCache.Configuration().inlineLimit, create: create, check: create,
                                               log: log)
                } catch {
                    state.failedAt = .now
                    if create { throw error }
                    return nil
                }
            }
            guard let disk = state.disk else { return nil }
            return try body(disk)
        }
    }

    /// As `withDisk`, for reads that cannot fail.
    func withDisk<T: Sendable>(_ body: (DiskCache) -> T) -> T? {
        try? withDisk(create: false) { disk throws(RiffleError) in body(disk) }
    }
}
