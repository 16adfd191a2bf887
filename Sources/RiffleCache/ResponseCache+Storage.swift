import Foundation
import RiffleHTTP
import RiffleStorage

extension ResponseCache {
    /// Memory, then disk. An entry stored for other `Vary` header values is a miss.
    func entry(for key: CacheKey, request: HTTPRequest, now: Date) -> CacheEntry? {
        var found = memory.value(for: key)
        if found == nil, let disk = diskForLookup(), let stored = disk.read(key, now: now) {
            found = stored
            // Named bodies are not kept in memory: their file on disk is the truth their owner and
            // other processes read and write.
            if stored.owner == nil { memory.set(stored, for: key, cost: stored.size) }
        }
        guard let found, found.vary == CacheKey.varyFingerprint(vary: found.headers["vary"], request: request) else { return nil }
        return found
    }

    /// Stores `entry` (memory and disk). The body file is written before the index's lock is
    /// waited for; the row and the file's rename happen together holding it. The disk's part runs
    /// off the actor (the index has its own lock), so a lookup for the next request never waits
    /// behind a file being written and its row.
    func store(_ entry: CacheEntry, at location: BodyLocation, response: HTTPResponse) async throws(RiffleError) {
        memory.removeValue(for: entry.key)
        let (stored, evicted) = try await storeOnDisk(entry, at: location, response: response)
        for key in evicted { memory.removeValue(for: key) }
        if entry.owner == nil, !evicted.contains(entry.key) { memory.set(stored, for: entry.key, cost: entry.size) }
    }

    /// The disk's part of `store`: the entry as stored, and the keys evicted to make room.
    private nonisolated func storeOnDisk(_ entry: CacheEntry, at location: BodyLocation, response: HTTPResponse)
        async throws(RiffleError) -> (CacheEntry, [CacheKey]) {
        let disk = try tier.forStore()
        var note: String?
        if case .named(_, _, let makeNote) = location { note = makeNote(response) }
        let prepared = try disk.prepare(entry, at: location, note: note)
        let now = clock()
        let evicted = try await withIndexLock { () throws(RiffleError) in try disk.commit(prepared, now: now) }
        return (prepared.entry, evicted)
    }

    /// Records a 304: the stored body (only the version that was revalidated) is fresh again.
    func renew(_ entry: CacheEntry) async {
        if entry.owner == nil { memory.set(entry, for: entry.key, cost: entry.size) }
        guard let disk = diskForLookup() else { return }
        do {
            _ = try await withIndexLock { () throws(RiffleError) -> Bool? in
                try disk.renew(entry.key, version: entry.version, fetchedAt: entry.fetchedAt, serverMaxAge: entry.serverMaxAge,
                               etag: entry.etag, lastModified: entry.lastModified) ? true : nil
            }
        } catch {
            warnNotStored(error)
        }
    }

    /// Removes the stored response for `request`, if any.
    public func removeResponse(for request: HTTPRequest) async {
        await remove(CacheKey(request))
    }

    /// Removes the entry for `key`: its row and its body.
    package func remove(_ key: CacheKey) async {
        memory.removeValue(for: key)
        guard let disk = diskForLookup(), disk.writable else { return }
        _ = try? await withIndexLock { () throws(RiffleError) -> Bool? in try disk.remove(key) ? true : nil }
    }

    /// Total size, entry count and per-owner figures.
    public func statistics() throws(RiffleError) -> CacheStatistics {
        guard FileManager.default.fileExists(atPath: indexPath) else {
            return CacheStatistics(totalSize: 0, entryCount: 0, sizeLimit: configuration.sizeLimit)
        }
        return try tier.forStatistics().statistics()
    }

    /// Empties the cache: every response, every owner's named bodies, and the files of the cache's
    /// own shapes that no row knows in the folders it keeps. Nothing else in the folder is touched.
    public func removeAll() async throws(RiffleError) {
        memory.removeAll()
        let disk = try disk()
        _ = try await withIndexLock { () throws(RiffleError) -> Bool? in try disk.removeAll(owner: nil) ? true : nil }
    }

    /// Removes the entries stored under `owner` (`BodyLocation.named`), and their files.
    public func removeAll(owner: String) async throws(RiffleError) {
        try await removeAll(owner: owner, claims: nil)
    }

    /// Removes the entries stored under `owner` and their files; in the owner's folders, files no row
    /// knows go too when `claims` says the name is one the owner writes (a page file, never a user's
    /// `notes.txt`), and nothing else.
    package func removeAll(owner: String, claims: (@Sendable (String) -> Bool)?) async throws(RiffleError) {
        let disk = try disk()
        _ = try await withIndexLock { () throws(RiffleError) -> Bool? in try disk.removeAll(owner: owner, claims: claims) ? true : nil }
    }
}
