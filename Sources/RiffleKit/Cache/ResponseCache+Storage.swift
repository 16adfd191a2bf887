import Foundation

extension ResponseCache {
    /// Memory, then disk. An entry stored for other `Vary` header values is a miss.
    func entry(for key: CacheKey, request: HTTPRequest, now: Date) -> CacheEntry? {
        var found = memory.value(for: key)
        if found == nil, let disk = diskForLookup(), let stored = disk.read(key, now: now) {
            found = stored
            // Page bodies are not kept in memory: their file on disk is the truth PageLoader and
            // other processes read and write.
            if stored.feed == nil { memory.set(stored, for: key, cost: stored.size) }
        }
        guard let found, found.vary == CacheKey.varyFingerprint(vary: found.headers["vary"], request: request) else { return nil }
        return found
    }

    func store(_ entry: CacheEntry, at location: BodyLocation) throws(RiffleError) {
        memory.removeValue(for: entry.key)
        let evicted = try disk().write(entry, at: location, now: clock())
        for key in evicted { memory.removeValue(for: key) }
        if entry.feed == nil, !evicted.contains(entry.key) { memory.set(entry, for: entry.key, cost: entry.size) }
    }

    func renew(_ entry: CacheEntry) {
        try? disk().renew(entry.key, fetchedAt: entry.fetchedAt, serverMaxAge: entry.serverMaxAge,
                          etag: entry.etag, lastModified: entry.lastModified)
        if entry.feed == nil { memory.set(entry, for: entry.key, cost: entry.size) }
    }

    /// Removes the stored response for `request`, if any.
    public func removeResponse(for request: HTTPRequest) {
        let key = CacheKey(request)
        memory.removeValue(for: key)
        try? disk().remove(key)
    }

    /// Total size, entry count and per-feed page figures.
    public func statistics() throws(RiffleError) -> CacheStatistics {
        try disk().statistics()
    }

    /// Empties the cache: every response, every feed's pages.
    public func removeAll() throws(RiffleError) {
        memory.removeAll()
        try disk().removeAll()
    }

    /// Removes one feed's pages (`Feed.id`).
    public func removeFeed(_ feedID: String) throws(RiffleError) {
        try disk().removeAll(feedID: feedID)
    }

    /// Records a page file that is on disk but not in the index (written before the index existed,
    /// or the index was rebuilt), so it is revalidated and evicted like any other entry.
    func adopt(_ entry: CacheEntry, at location: BodyLocation) throws(RiffleError) {
        let disk = try disk()
        guard disk.read(entry.key, now: clock()) == nil else { return }
        try disk.write(entry, at: location, now: clock(), writeBody: false)
    }

    /// Whether `request` has a row in the index.
    func hasEntry(for request: HTTPRequest) -> Bool {
        entry(for: CacheKey(request), request: request, now: clock()) != nil
    }
}
