import Foundation
import RiffleHTTP
import RiffleStorage
import Synchronization

/// A `ResponseCache`'s disk tier as its actor and its `reader` share it: one `DiskCache`, so one
/// connection to `responses/index.sqlite` per cache, opened on first use by whichever comes first.
///
/// - The reader (the first frame, before the actor runs) opens an existing index without checking
///   it and never creates one.
/// - The actor's first use checks it (`quick_check`, a damaged index replaced) and sweeps the
///   temporary files interrupted runs left, once a run (bounded), whether it reads or stores.
/// - An index that cannot be opened is tried again after 30 s, not on every request.
final class DiskTier: Sendable {
    let directory: URL
    let indexPath: String
    let configuration: ResponseCache.Configuration
    /// The cache folder as the reader reaches it: its folders stay open between reads.
    let folder: CacheFolder

    private struct State {
        var disk: DiskCache?
        /// Why the index could not be opened for the actor, and when.
        var failure: (error: RiffleError, at: ContinuousClock.Instant, create: Bool)?
        /// Whether temporary files left by interrupted runs were looked for.
        var swept = false
        /// When the reader last failed to open the index: it tries again only after a few seconds.
        var readFailedAt: ContinuousClock.Instant?
    }
    private let state = Mutex(State())

    init(directory: URL, indexPath: String, configuration: ResponseCache.Configuration) {
        self.directory = directory
        self.indexPath = indexPath
        self.configuration = configuration
        folder = CacheFolder(root: directory)
    }

    /// The open index, else an existing one opened without checks; nil when there is none or it
    /// cannot be opened. Creates nothing.
    func forReading() -> DiskCache? {
        state.withLock { state -> DiskCache? in
            if let disk = state.disk { return disk }
            if let failed = state.readFailedAt, failed.duration(to: .now) < .seconds(5) { return nil }
            guard FileManager.default.fileExists(atPath: indexPath) else { return nil }
            guard let opened = try? open(create: false, check: false) else {
                state.readFailedAt = .now
                return nil
            }
            state.disk = opened
            return opened
        }
    }

    /// The index for the actor: nil while there is none and `create` is not set. Checked once, and
    /// temporary files swept once.
    func forActor(create: Bool) -> DiskCache? {
        try? opened(create: create)
    }

    /// The index for a store, created when missing.
    func forStore() throws(RiffleError) -> DiskCache {
        guard let disk = try opened(create: true) else { throw .storage(path: indexPath, reason: "cannot be opened") }
        return disk
    }

    /// The index for statistics: opened (not created) when missing; throws when it cannot be.
    func forStatistics() throws(RiffleError) -> DiskCache {
        guard let disk = try opened(create: false) else { throw .storage(path: indexPath, reason: "missing") }
        return disk
    }

    private func opened(create: Bool) throws(RiffleError) -> DiskCache? {
        let (disk, sweep) = try state.withLock { state throws(RiffleError) -> (DiskCache?, Bool) in
            if state.disk == nil {
                guard create || FileManager.default.fileExists(atPath: indexPath) else { return (nil, false) }
                if let failure = state.failure, failure.create || !create, failure.at.duration(to: .now) < .seconds(30) {
                    throw failure.error
                }
                do throws(RiffleError) {
                    state.disk = try open(create: create, check: true)
                    state.failure = nil
                } catch {
                    state.failure = (error, ContinuousClock.now, create)
                    throw error
                }
            }
            let sweep = !state.swept
            state.swept = true
            return (state.disk, sweep)
        }
        guard let disk else { return nil }
        disk.check()
        if sweep, disk.writable { disk.sweepTemporaryFiles() }
        return disk
    }

    private func open(create: Bool, check: Bool) throws(RiffleError) -> DiskCache {
        try DiskCache(root: directory, sizeLimit: configuration.sizeLimit, inlineLimit: configuration.inlineLimit,
                      create: create, check: check, log: configuration.log)
    }
}

extension ResponseCache {
    /// Synchronous, read-only access to what the cache keeps under names its callers gave
    /// (`BodyLocation.named`), from any thread and without the actor: the browser paints its first
    /// frame from it before the actor has run. It goes through the cache's own connection to the
    /// index (one per cache), so a row and its file are read as the actor reads them; a damaged
    /// entry found is removed as the actor would.
    package struct Reader: Sendable {
        let tier: DiskTier

        /// The body kept at `path` (relative to the cache folder, as it was named) with what the
        /// index records of it; nil when absent, damaged or not the file its row describes.
        package func body(named path: String) -> StoredBody? {
            guard let path = CachePath(path), let entry = tier.forReading()?.entry(at: path) else { return nil }
            return StoredBody(key: entry.key, body: entry.body, status: entry.status, fetchedAt: entry.fetchedAt, etag: entry.etag,
                              lastModified: entry.lastModified, serverMaxAge: entry.serverMaxAge, note: entry.note)
        }

        /// The body kept at `path` with the record kept on its file (`EntryRecord`), read without
        /// opening the index: what the first frame is painted from. `.unrecorded` when the file has
        /// no record the cache can read (then only `body(named:)` can say what it is); nil when
        /// absent, not a regular file, or when there is no index at all. Whose answer it is (the
        /// record's key) is for the caller to check, and `confirms(named:_:)` checks it all against
        /// the index once the frame is painted.
        package func recordedBody(named path: String) -> Recorded? {
            // Without an index (lost, or removed by hand) a file is nobody's: not trusted, whatever it carries.
            guard let path = CachePath(path), path.isNamed, access(tier.indexPath, F_OK) == 0 else { return nil }
            switch tier.folder.readRecorded(path.folders, path.name, expectedSize: EntryRecord.size(of:)) {
            case .data(let data, let bytes, let fileID):
                guard let record = EntryRecord(bytes: bytes) else { return .unrecorded }
                let body = StoredBody(key: record.key, body: data, status: record.status, fetchedAt: Date(timeIntervalSince1970: record.fetchedAt),
                                      etag: record.etag, lastModified: record.lastModified, serverMaxAge: record.maxAge, note: record.note)
                return .body(body, RecordCheck(record: record, fileID: fileID))
            case .unrecorded:
                return .unrecorded
            case .missing, .damaged:
                return nil
            }
        }

        /// Whether anything is at `path` (its folders reached without following links), without
        /// opening it or the index: a page never stored is told apart from one that may be before
        /// anything costlier is asked. A link or a folder in a body's place counts: reading it then
        /// says what it is.
        package func holds(named path: String) -> Bool {
            guard let path = CachePath(path) else { return false }
            return tier.folder.holds(path.folders, path.name)
        }

        /// Whether the index's row for `path` still describes the body `check` was read with: the same
        /// store of the same request, as fresh, in the same file. False when the index cannot be
        /// read, has no row or says otherwise.
        package func confirms(named path: String, _ check: RecordCheck) -> Bool {
            guard let path = CachePath(path), let row = tier.forReading()?.row(at: path) else { return false }
            return check.record.matches(row, fileID: check.fileID)
        }

        /// What the index records of the body at `path`, without reading the file (`body` is nil).
        package func record(named path: String) -> StoredBody? {
            guard let path = CachePath(path), let row = tier.forReading()?.row(at: path) else { return nil }
            return StoredBody(key: CacheKey(id: row.key), body: nil, status: row.status, fetchedAt: Date(timeIntervalSince1970: row.fetchedAt),
                              etag: row.etag, lastModified: row.lastModified, serverMaxAge: row.maxAge, note: row.note)
        }

        /// The names (relative paths) of the bodies `owner` keeps, as the index lists them.
        package func names(owner: String) -> [String] {
            (tier.forReading()?.paths(owner: owner) ?? []).map(\.description)
        }
    }

    /// Reads of named bodies without the actor (see `Reader`).
    package nonisolated var reader: Reader { Reader(tier: tier) }
}

/// A body read with the record kept on its file (`ResponseCache.Reader.recordedBody(named:)`).
package enum Recorded: Sendable {
    /// The body as its record describes it, and what to check against the index later.
    case body(StoredBody, RecordCheck)
    /// A file without a record the cache can read: only the index can say what it is.
    case unrecorded
}

/// What a body was read with, to check against the index's row (`ResponseCache.Reader.confirms`).
package struct RecordCheck: Sendable, Equatable {
    let record: EntryRecord
    let fileID: UInt64
}

/// A body kept under a name its owner gave, with what the cache's index records of it.
package struct StoredBody: Sendable {
    /// The cache key of the request it answers.
    package var key: CacheKey
    /// The bytes; nil when only the index was read (`ResponseCache.Reader.record(named:)`).
    package var body: Data?
    package var status: Int
    /// When the server sent it, or last confirmed it (a 304).
    package var fetchedAt: Date
    package var etag: String?
    package var lastModified: String?
    /// The server's freshness lifetime; nil when it said nothing.
    package var serverMaxAge: TimeInterval?
    /// What the owner keeps beside it (`BodyLocation.named`'s note).
    package var note: String?
}
