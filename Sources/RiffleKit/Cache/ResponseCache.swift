import Foundation

/// RiffleKit's response cache: a memory LRU in front of an SQLite-indexed disk tier, RFC 9111
/// freshness and revalidation, stale-if-error, and one transfer for identical concurrent requests.
///
/// ```swift
/// let cache = ResponseCache(directory: URL(filePath: "/tmp/riffle-example"))   // ~/.cache/riffle in riffle
/// let transport = CurlTransport()
/// let request = HTTPRequest(url: URL(string: "https://api.example.com/items")!)
/// let value = try await cache.response(for: request, policy: .returnCacheElseLoad, maxAge: 300, validate: { _ in },
///                                      fetch: { request throws(RiffleError) in try await transport.send(request) })
/// print(value.source, value.age)                                                 // cache 12.0
/// ```
///
/// A `Client` given the cache (`Client.Configuration.cache`) uses it for every GET, with the
/// endpoint's policy and cache time.
///
/// Several processes may share one folder: the index is an SQLite database in WAL mode and body files
/// are replaced by atomic renames.
public actor ResponseCache: ResponseCaching {
    /// Limits and hooks.
    public struct Configuration: Sendable {
        /// Bytes on disk (responses and pages) before least recently used entries are evicted.
        public var sizeLimit = 200 * 1024 * 1024
        /// Entries kept in memory.
        public var memoryCountLimit = 512
        /// Bytes of bodies kept in memory.
        public var memoryCostLimit = 32 * 1024 * 1024
        /// Bodies up to this size live inside the index row rather than in a file of their own.
        public var inlineLimit = 16 * 1024
        /// Told about events worth a log line (a damaged entry removed, a rebuilt index...).
        public var log: @Sendable (String) -> Void = { _ in }

        /// The defaults: 200 MB on disk, 512 entries and 32 MB in memory, 16 KB inline bodies.
        public init() {}
    }

    /// The cache root (`~/.cache/riffle`); the index and response bodies live in `responses/`.
    public nonisolated let directory: URL
    let configuration: Configuration
    let clock: @Sendable () -> Date
    var memory: MemoryCache<CacheKey, CacheEntry>
    var flights: [CacheKey: Flight] = [:]
    var nextID = 0
    private var diskStore: DiskCache?
    private nonisolated let indexPath: String

    /// - Parameters:
    ///   - directory: the cache root; created (mode 0700) on first use.
    ///   - clock: the time used for freshness and ages, injectable for tests.
    public init(directory: URL, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        self.directory = directory
        self.configuration = configuration
        self.clock = clock
        indexPath = DiskCache.indexPath(DiskCache.folder(directory))
        memory = MemoryCache(countLimit: configuration.memoryCountLimit, costLimit: configuration.memoryCostLimit)
    }

    /// The disk tier for a lookup: nil while the cache has no index yet. A lookup in a new cache is
    /// then a miss without creating one: creating the index takes several synced writes (about 5 ms),
    /// which belong to the first store, beside the next transfer, not before the first request.
    func diskForLookup() -> DiskCache? {
        if let diskStore { return diskStore }
        guard FileManager.default.fileExists(atPath: indexPath) else { return nil }
        return try? disk()
    }

    /// The disk tier, opened on first use so that creating a cache never fails.
    func disk() throws(RiffleError) -> DiskCache {
        if let diskStore { return diskStore }
        let opened = try DiskCache(root: directory, sizeLimit: configuration.sizeLimit,
                                   inlineLimit: configuration.inlineLimit, log: configuration.log)
        diskStore = opened
        return opened
    }

    /// One value for `request` according to `policy`; see `ResponseCaching.response(for:policy:lifetime:validate:fetch:)`.
    /// Fresh entries answer at once; stale ones are revalidated with `If-None-Match`/`If-Modified-Since`.
    public func response(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                         validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                         fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse {
        try await response(for: request, policy: policy, lifetime: lifetime, location: .automatic, validate: validate, fetch: fetch)
    }

    /// As the public entry point, with the body kept at `location` (pages keep their `feed_<page>.json`).
    /// `checksJSON`: `validate` parses the body itself, so the cache does not parse it a second time.
    func response(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime, location: BodyLocation,
                  checksJSON: Bool = false,
                  validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                  fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse {
        let key = CacheKey(request)
        let url = request.url
        let now = clock()
        let cached = entry(for: key, request: request, now: now)
        let transfer = Transfer(key: key, request: request, lifetime: lifetime, location: location, checksJSON: checksJSON,
                                validate: validate, fetch: fetch)
        switch policy {
        case .returnCacheDontLoad:
            guard let cached else { throw .notCached }
            return cached.value(cached.isFresh(now: now, lifetime: lifetime) ? .cache : .stale, url: url, now: now)
        case .returnCacheElseLoad:
            if let cached, cached.isFresh(now: now, lifetime: lifetime) { return cached.value(.cache, url: url, now: now) }
            return try await network(transfer, conditional: cached, staleIfError: true)
        case .returnCacheThenLoad:
            return try await network(transfer, conditional: cached, staleIfError: false)
        case .reloadIgnoringCache:
            return try await network(transfer, conditional: nil, staleIfError: false)
        }
    }

    /// The cached value (when `.returnCacheThenLoad` finds one) then the network value with
    /// `differsFromCache`; one value for the other policies. Ending the iteration cancels the request.
    public nonisolated func responses(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                                      validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                                      fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        -> AsyncThrowingStream<CachedResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var cached: CachedResponse?
                    if policy == .returnCacheThenLoad {
                        cached = await self.cachedValue(for: request, lifetime: lifetime)
                        if let cached { continuation.yield(cached) }
                    }
                    var value = try await self.response(for: request, policy: policy, lifetime: lifetime, validate: validate, fetch: fetch)
                    if policy == .returnCacheThenLoad {
                        value.differsFromCache = cached.map { $0.response.body != value.response.body } ?? true
                    }
                    continuation.yield(value)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The stored value for `request` tagged `.cache` or `.stale`, without any request; nil on a miss.
    public func cachedValue(for request: HTTPRequest, lifetime: CacheLifetime) -> CachedResponse? {
        let now = clock()
        guard let entry = entry(for: CacheKey(request), request: request, now: now) else { return nil }
        return entry.value(entry.isFresh(now: now, lifetime: lifetime) ? .cache : .stale, url: request.url, now: now)
    }

    /// `cachedValue(for:lifetime:)` with `.server(fallback: maxAge)`.
    public func cachedValue(for request: HTTPRequest, maxAge: TimeInterval?) -> CachedResponse? {
        cachedValue(for: request, lifetime: .server(fallback: maxAge))
    }
}
