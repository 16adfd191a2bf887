import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads the pages of one feed, keeping each on disk as `feed_<page>.json`, through a `ResponseCache`
/// whose index records each page's fetch time, validators and freshness.
///
/// An actor: the serial queue of the design. Network fetches run one at a time by default (in the
/// order they were asked for); two loads of the same page share one request; a page on disk is
/// answered at once without waiting behind fetches of other pages.
///
/// ```swift
/// let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: DefaultTransport())
/// let page = try await loader.load(1)                           // disk if present, else network
/// let fresh = try await loader.load(1, policy: .reloadIgnoringCache)
/// ```
public actor PageLoader {
    /// How a loader behaves.
    public struct Configuration: Sendable {
        /// How many network fetches may run at once. 1 is the serial queue of the design; `riffle dump`
        /// raises it.
        public var maxConcurrentFetches: Int = 1
        /// Headers sent with every page request.
        public var headers: [String: String] = ["Accept": "application/json"]
        /// Told about events worth a log line (a corrupt file removed...).
        public var log: @Sendable (String) -> Void = { _ in }
        /// Seconds a page stays fresh when neither the server's `Cache-Control`/`Expires` nor the
        /// feed's `maxAge` say; a stale page is revalidated (`If-None-Match`) before use.
        public var maxAge: TimeInterval? = 300
        /// Where `${NAME}` in the feed's headers is looked up, at request time.
        public var environment: [String: String] = ProcessInfo.processInfo.environment

        public init() {}
    }

    public nonisolated let feed: Feed
    public nonisolated let store: PageStore
    private let transport: any HTTPTransporting
    let configuration: Configuration
    private let clock: @Sendable () -> Date
    /// The response cache the pages go through; shared with the rest of the client when passed in.
    public nonisolated let cache: ResponseCache

    private var inFlight: [Int: Task<Page, any Error>] = [:]
    private nonisolated let slots: FetchSlots
    /// Loads that joined a fetch already in flight instead of starting their own (for tests).
    public private(set) var joinedCount = 0
    /// Requests sent so far (for tests and the benchmark).
    public var requestCount: Int { slots.requestCount }

    /// A loader with a response cache of its own on `cacheDirectory`.
    public init(feed: Feed, cacheDirectory: URL, transport: any HTTPTransporting,
                configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        var cacheConfiguration = ResponseCache.Configuration()
        cacheConfiguration.log = configuration.log
        self.init(feed: feed, cache: ResponseCache(directory: cacheDirectory, configuration: cacheConfiguration, clock: clock),
                  transport: transport, configuration: configuration, clock: clock)
    }

    /// A loader whose pages live in `cache`'s folder and go through it (so they count towards its
    /// size limit and share its de-duplication).
    public init(feed: Feed, cache: ResponseCache, transport: any HTTPTransporting,
                configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        self.feed = feed
        self.cache = cache
        self.store = PageStore(cacheDirectory: cache.directory, feedID: feed.id)
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        slots = FetchSlots(limit: configuration.maxConcurrentFetches)
    }

    /// Loads page `number` (1-based).
    ///
    /// - `.returnCacheElseLoad` (default): the page on disk when fresh (`.disk`), else the network,
    ///   revalidating with `If-None-Match` (`.revalidated` on a 304); when the network fails, the page
    ///   on disk marked `.stale`.
    /// - `.reloadIgnoringCache`: the network; the file is replaced only by a 2xx answer whose body is
    ///   JSON holding an item array, otherwise it stays byte-identical and the error is thrown.
    /// - `.returnCacheDontLoad`: the disk only (`.disk`, or `.stale` when past its age); `RiffleError.notCached` when absent.
    /// - `.returnCacheThenLoad`: the network, revalidating; use the cache's `responses` to get both values.
    public func load(_ number: Int, policy: CachePolicy = .returnCacheElseLoad) async throws(RiffleError) -> Page {
        switch policy {
        case .returnCacheElseLoad, .returnCacheDontLoad:
            // Answered here, without waiting behind fetches of other pages.
            if let page = await storedPage(number), page.source == .disk || policy == .returnCacheDontLoad { return page }
            if policy == .returnCacheDontLoad { throw .notCached }
            // Past a stored last page there is nothing to ask for; only an explicit reload asks again.
            if number > 1, let previous = cachedPage(number - 1), previous.isLastPage { return endPage(number) }
        case .reloadIgnoringCache, .returnCacheThenLoad:
            break
        }
        return try await fetch(number, policy: policy)
    }

    /// The page on disk without touching the loader's state, or nil (also when the file does not
    /// parse). Callable from any thread: a browser paints its first frame from it without waiting
    /// for the actor.
    public nonisolated func peekCachedPage(_ number: Int) -> Page? {
        guard let (data, metadata) = store.read(number) else { return nil }
        return try? page(number, data: data, source: .disk, metadata: metadata)
    }

    /// The page on disk, or nil. A stored file that no longer parses is removed and logged: a miss, never a crash.
    public func cachedPage(_ number: Int) -> Page? {
        guard let (data, metadata) = store.read(number) else { return nil }
        do {
            return try page(number, data: data, source: .disk, metadata: metadata)
        } catch {
            configuration.log("removed corrupt cache file \(store.bodyURL(number).lastPathComponent): \(error)")
            store.remove(number)
            return nil
        }
    }

    private func fetch(_ number: Int, policy: CachePolicy) async throws(RiffleError) -> Page {
        let task: Task<Page, any Error>
        let started: Bool
        if let shared = inFlight[number] {
            task = shared
            joinedCount += 1
            started = false
        } else {
            task = startFetch(number, policy: policy)
            inFlight[number] = task
            started = true
        }
        // The caller that started the fetch removes it once the result exists (always: the task is
        // not cancelled with its callers), so a caller arriving in between still joins it.
        defer { if started { inFlight[number] = nil } }
        do {
            return try await task.value
        } catch {
            throw error as? RiffleError ?? RiffleError(error, url: feed.url(forPage: number))
        }
    }

    /// A numbered page's URL is known at once: its fetch starts off the actor, right away, rather
    /// than behind every job queued on the actor first (a dump of 200 pages queues 200 cache lookups,
    /// and at one fetch at a time the first request would wait for all of them).
    private func startFetch(_ number: Int, policy: CachePolicy) -> Task<Page, any Error> {
        if feed.pagination.isSequential && number > 1 { return Task { try await self.fetchInTurn(number, policy: policy) } }
        guard let url = pageURL(number) else { return Task { self.endPage(number) } }
        return Task.detached(priority: Task.currentPriority) { try await self.performFetch(number, url: url, policy: policy) }
    }

    /// A sequential feed's page: its URL is in the previous page's answer.
    private func fetchInTurn(_ number: Int, policy: CachePolicy) async throws -> Page {
        if feed.pagination.isSequential, number > 1 {
            // Page N's URL is in page N-1's answer: let a fetch of N-1 finish, or load it (and so 1...N-1) first.
            if let previous = inFlight[number - 1] { _ = try? await previous.value }
            // Without N-1's metadata its next URL is unknown, even when its body is on disk: fetch it again.
            if store.readMetadata(number - 1) == nil { _ = try await load(number - 1, policy: .reloadIgnoringCache) }
        }
        guard let url = pageURL(number) else { return endPage(number) }
        return try await performFetch(number, url: url, policy: policy)
    }

    // Nonisolated: parsing and the metadata write run beside the next transfer, not in its way on the actor.
    private nonisolated func performFetch(_ number: Int, url: URL, policy: CachePolicy) async throws(RiffleError) -> Page {
        let request = try pageRequest(url: url)
        let transport = transport
        let slots = slots
        // The body is read once: the cache's validation step keeps what it parsed here, and the page
        // is made from it (a 304 or a joined transfer finds nothing kept and parses the stored body).
        let kept = Mutex<(body: Data, parsed: ParsedBody)?>(nil)
        let value = try await cache.response(
            for: request, policy: policy == .returnCacheDontLoad ? .returnCacheElseLoad : policy, maxAge: effectiveMaxAge,
            location: pageLocation(number), checksJSON: true,
            validate: { response throws(RiffleError) in
                let parsed = try self.parse(response.body, stored: false)
                kept.withLock { $0 = (response.body, parsed) }
            },
            fetch: { request throws(RiffleError) in
                // Only the transfer holds a slot: parsing and writing this page overlap with the
                // next request, so a serial load costs the server's latency, not more. The slot is
                // freed as soon as the answer is read (by the transport itself on loopback), and
                // the yield lets a next page waiting for it go out before this one is checked.
                let result: Result<HTTPResponse, RiffleError>
                do throws(RiffleError) {
                    let response = try await transport.send(self.sendable(request), slots: slots)
                    result = .success(self.feed.redacted(response, environment: self.configuration.environment))
                } catch {
                    result = .failure(error)
                }
                await Task.yield()
                return try result.get()
            })
        let body = value.response.body
        let parsed = try kept.withLock { kept throws(RiffleError) -> ParsedBody in
            if let kept, kept.body == body { return kept.parsed }
            // Nothing kept: the body came from disk (a fresh or stale entry, or one a 304 confirmed),
            // or from a transfer this call joined, which is checked in full.
            return try parse(body, stored: value.source != .network)
        }
        // From headers and a body that were redacted before storing (`Feed.redacted`), so no query key.
        let next = feed.pagination.nextURL(after: url, headers: value.response.headers, document: parsed.document)
        if value.source == .network || value.source == .revalidated {
            let metadata = PageStore.Metadata(url: url.absoluteString, fetchedAt: value.fetchedAt, status: value.response.status,
                                              etag: value.response.header("ETag"), lastModified: value.response.header("Last-Modified"),
                                              next: next?.absoluteString)
            store.writeMetadata(number, metadata)
        }
        return page(number, parsed: parsed, data: body, source: Self.source(value.source), fetchedAt: value.fetchedAt,
                    status: value.response.status, next: next?.absoluteString, known: true)
    }

    /// The first line of an error body, short, with control characters removed.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return RiffleError.oneLine(text, limit: 60)
    }
}
