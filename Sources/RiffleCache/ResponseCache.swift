import Foundation
import Synchronization
import RiffleHTTP
import RiffleStorage

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
/// Several processes may share one folder: the index is an SQLite database in WAL mode, body files
/// are replaced by renames made while holding its write lock, and a row records its file's size and
/// inode, so a body and its row agree or the entry is a miss.
///
/// The data comes first: an answer that cannot be stored (a full disk, a read-only or locked cache)
/// is still returned, and the reason is logged once. A read never waits for the write
/// lock, and a write waits for it at most `Configuration.lockTimeout`, suspended rather than blocking
/// a thread.
public actor ResponseCache: ResponseCaching {
    /// Limits and hooks.
    public struct Configuration: Sendable {
        /// Bytes on disk (every body, named ones too) before least recently used entries are evicted.
        public var sizeLimit = 200 * 1024 * 1024
        /// Entries kept in memory.
        public var memoryCountLimit = 512
        /// Bytes of bodies kept in memory.
        public var memoryCostLimit = 32 * 1024 * 1024
        /// Bodies up to this size live inside the index row rather than in a file of their own.
        public var inlineLimit = 16 * 1024
        /// Told about events worth a log line (a damaged entry removed, a rebuilt index, the first
        /// answer of a run that could not be stored).
        public var log: @Sendable (String) -> Void = { _ in }
        /// The longest a store waits for another program's write lock on the index before the answer
        /// is returned without being stored. After such a wait, later stores try once without
        /// waiting until one succeeds, so a lock held for minutes costs one wait, not one per page.
        public var lockTimeout: Duration = .seconds(2)

        /// The defaults: 200 MB on disk, 512 entries and 32 MB in memory, 16 KB inline bodies, 2 s
        /// lock timeout.
        public init() {}
    }

    /// The cache root (`~/.cache/riffle`); the index and response bodies live in `responses/`.
    public nonisolated let directory: URL
    let configuration: Configuration
    let clock: @Sendable () -> Date
    var memory: MemoryCache<CacheKey, CacheEntry>
    var flights: [CacheKey: Flight] = [:]
    var nextID = 0
    /// The disk tier: the one connection to the index, shared with `reader`.
    nonisolated let tier: DiskTier
    /// Whether a store gave up waiting for the index's lock (cleared by the next one that gets it), and
    /// how many times one waited the whole `lockTimeout` in vain. Outside the actor: a store's disk
    /// work runs off it (`store(_:at:response:)`).
    nonisolated let lockState = Mutex<(stuck: Bool, timeouts: Int)>((false, 0))
    /// How many times a store waited the whole `lockTimeout` in vain (for tests: one per stuck lock).
    var lockTimeouts: Int { lockState.withLock { $0.timeouts } }
    /// Whether a store failed already in this run (it is logged once).
    var storageWarned = false
    /// Network failures already logged as answered with stale entries.
    var staleWarnings: Set<String> = []
    nonisolated let indexPath: String

    /// - Parameters:
    ///   - directory: the cache root; created (mode 0700) on first use.
    ///   - configuration: limits (memory and disk sizes) and the lock timeout.
    ///   - clock: the time used for freshness and ages, injectable for tests.
    public init(directory: URL, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        self.directory = directory
        self.configuration = configuration
        self.clock = clock
        indexPath = DiskCache.indexPath(DiskCache.folder(directory))
        tier = DiskTier(directory: directory, indexPath: indexPath, configuration: configuration)
        memory = MemoryCache(countLimit: configuration.memoryCountLimit, costLimit: configuration.memoryCostLimit)
    }

    /// The disk tier for a lookup: nil while the cache has no index yet. A lookup in a new cache is
    /// then a miss without creating one: creating the index takes several synced writes (about 5 ms),
    /// which belong to the first store, beside the next transfer, not before the first request.
    func diskForLookup() -> DiskCache? {
        tier.forActor(create: false)
    }

    /// The disk tier for a store, opened (and created) on first use so that creating a cache never
    /// fails.
    func disk() throws(RiffleError) -> DiskCache {
        try tier.forStore()
    }

    /// Runs `attempt` until it gets the index's write lock (it returns nil while another connection
    /// holds it). The wait suspends, never blocking a thread of the cooperative pool, for at most
    /// `lockTimeout`; then the answer is "not stored".
    nonisolated func withIndexLock<T>(_ attempt: () throws(RiffleError) -> T?) async throws(RiffleError) -> T {
        let deadline = ContinuousClock.now + (lockState.withLock { $0.stuck } ? .zero : configuration.lockTimeout)
        var pause = Duration.milliseconds(1)
        while true {
            if let value = try attempt() {
                lockState.withLock { $0.stuck = false }
                return value
            }
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                let cancelled = Task.isCancelled
                lockState.withLock { state in
                    if !state.stuck && !cancelled { state.timeouts += 1 }
                    state.stuck = !cancelled
                }
                throw .storage(path: indexPath, reason: "locked by another program")
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Says once per run why answers are not being stored; they are still returned.
    func warnNotStored(_ error: RiffleError) {
        let reason = error.reasonText
        guard !storageWarned else { return }
        storageWarned = true
        let place = if case .storage(let path, _) = error { "\(path): " } else { "" }
        configuration.log("could not store in the cache (\(place)\(reason)); what arrived is shown but not kept")
    }

    /// One value for `request` according to `policy`; see `ResponseCaching.response(for:policy:lifetime:validate:fetch:)`.
    /// Fresh entries answer at once; stale ones are revalidated with `If-None-Match`/`If-Modified-Since`.
    public func response(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime,
                         validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                         fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse {
        try await response(for: request, policy: policy, lifetime: lifetime, location: .automatic, validate: validate, fetch: fetch)
    }

    /// As the public entry point, with the body kept at `location` (a caller that names its bodies' files).
    /// `checksJSON`: `validate` parses the body itself, so the cache does not parse it a second time.
    func response(for request: HTTPRequest, policy: CachePolicy, lifetime: CacheLifetime, location: BodyLocation,
                  checksJSON: Bool = false,
                  validate: @escaping @Sendable (HTTPResponse) throws(RiffleError) -> Void,
                  fetch: @escaping @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse)
        async throws(RiffleError) -> CachedResponse {
        let key = CacheKey(request)
        let url = request.url
        let now = clock()
        // An explicit reload does not look: its answer replaces whatever is stored.
        let cached = policy == .reloadIgnoringCache ? nil : entry(for: key, request: request, now: now)
        let transfer = Transfer(key: key, request: request, lifetime: lifetime, location: location, checksJSON: checksJSON,
                                validate: validate, fetch: fetch)
        switch policy {
        case .returnCacheDontLoad:
            guard let cached else { throw .notCached }
            return cached.value(cached.isFresh(now: now, lifetime: lifetime) ? .cache : .stale, url: url, now: now, lifetime: lifetime)
        case .returnCacheElseLoad:
            if let cached, cached.isFresh(now: now, lifetime: lifetime) {
                return cached.value(.cache, url: url, now: now, lifetime: lifetime)
            }
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
        return entry.value(entry.isFresh(now: now, lifetime: lifetime) ? .cache : .stale, url: request.url, now: now, lifetime: lifetime)
    }

    /// `cachedValue(for:lifetime:)` with `.server(fallback: maxAge)`.
    public func cachedValue(for request: HTTPRequest, maxAge: TimeInterval?) -> CachedResponse? {
        cachedValue(for: request, lifetime: .server(fallback: maxAge))
    }
}

extension ResponseCache {
    /// This cache as a `Client`'s `CacheTarget`, keeping each body inline in the index or in a file it
    /// names under `responses/`.
    package nonisolated func target() -> CacheTarget {
        target(.automatic)
    }

    /// This cache as a `Client`'s `CacheTarget`, keeping the body at `path` (`<folder>/<owner>/<name>`
    /// relative to the cache folder, three plain names), grouped and removed by `owner`
    /// (`removeAll(owner:)`); `note` makes what the owner keeps in the same row, read back by
    /// `reader`. A path the cache would not write is refused when storing.
    package nonisolated func target(named path: String, owner: String, note: @escaping @Sendable (HTTPResponse) -> String?) -> CacheTarget {
        target(.named(path: path, owner: owner, note: note))
    }

    /// This cache as a `Client`'s `CacheTarget`, keeping bodies at `location`. The pipeline's
    /// `validate` decodes each body itself, so the cache does not parse it a second time.
    nonisolated func target(_ location: BodyLocation) -> CacheTarget {
        CacheTarget { request, policy, lifetime, validate, fetch throws(RiffleError) in
            try await self.response(for: request, policy: policy, lifetime: lifetime, location: location, checksJSON: true,
                                    validate: validate, fetch: fetch)
        }
    }
}
