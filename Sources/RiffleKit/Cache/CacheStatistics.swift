/// What the cache holds, for `riffle cache info`.
public struct CacheStatistics: Sendable, Equatable {
    /// One feed's pages.
    public struct Feed: Sendable, Equatable {
        /// `Feed.id`.
        public var feedID: String
        /// Bytes of its page bodies.
        public var size: Int
        /// Pages in the index.
        public var pageCount: Int
    }

    /// Bytes of all bodies (responses and pages).
    public var totalSize: Int
    /// Responses and pages in the index.
    public var entryCount: Int
    /// The configured limit that eviction keeps `totalSize` under.
    public var sizeLimit: Int
    /// Feeds with pages in the index, by id.
    public var feeds: [Feed]
}
