/// What a cache holds (`ResponseCaching.statistics()`).
public struct CacheStatistics: Sendable, Equatable {
    /// The entries one owner keeps under names of its own (a feed's pages, whose owner is `Feed.id`).
    public struct Owner: Sendable, Equatable {
        /// The tag the owner stored them under.
        public var owner: String
        /// Bytes of their bodies.
        public var size: Int
        /// Entries in the index.
        public var count: Int

        /// Figures for `owner`'s entries.
        public init(owner: String, size: Int, count: Int) {
            self.owner = owner
            self.size = size
            self.count = count
        }
    }

    /// Bytes of all bodies.
    public var totalSize: Int
    /// Entries in the index.
    public var entryCount: Int
    /// The configured limit that eviction keeps `totalSize` under.
    public var sizeLimit: Int
    /// Owners with entries in the index, by tag.
    public var owners: [Owner]

    /// Figures a cache reports (a `ResponseCaching` implementation makes one).
    public init(totalSize: Int, entryCount: Int, sizeLimit: Int, owners: [Owner] = []) {
        self.totalSize = totalSize
        self.entryCount = entryCount
        self.sizeLimit = sizeLimit
        self.owners = owners
    }
}
