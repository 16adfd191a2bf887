/// How a request uses the cache.
public enum CachePolicy: Sendable, Equatable {
    /// Always ask the network; store a valid answer.
    case reloadIgnoringCache
    /// Deliver the cached value at once, then the network's.
    case returnCacheThenLoad
    /// The cached value when there is one (and it is fresh), else the network. The default.
    case returnCacheElseLoad
    /// The cache only; a miss is `RiffleError.notCached`.
    case returnCacheDontLoad
}
