extension Client {
    /// What the client's cache holds (total size, entries, the size limit), as the seeds'
    /// `getAllCacheDataSize`; nil when the client has no cache.
    ///
    /// ```swift
    /// if let statistics = try await client.cacheStatistics() {
    ///     print("cache: \(statistics.totalSize / 1024) KB in \(statistics.entryCount) answers")
    /// }
    /// try await client.clearCache()
    /// ```
    public func cacheStatistics() async throws(RiffleError) -> CacheStatistics? {
        guard let cache = configuration.cache else { return nil }
        return try await cache.statistics()
    }

    /// Empties the client's cache (every answer, every feed's pages kept in it); nothing without a cache.
    public func clearCache() async throws(RiffleError) {
        try await configuration.cache?.removeAll()
    }
}
