import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads the pages of one feed, keeping each on disk as `feed_<page>.json`.
///
/// An actor: the serial queue of the design. Network fetches run one at a time by default (in the
/// order they were asked for); two loads of the same page share one request; a page on disk is
/// answered at once without waiting behind fetches of other pages.
///
/// ```swift
/// let loader = PageLoader(feed: feed, cacheDirectory: cache, transport: URLSessionTransport())
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

        public init() {}
    }

    public nonisolated let feed: Feed
    public nonisolated let store: PageStore
    private let transport: any HTTPTransporting
    private let configuration: Configuration
    private let clock: @Sendable () -> Date

    private var inFlight: [Int: Task<Page, any Error>] = [:]
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Requests sent so far (for tests and the benchmark).
    public private(set) var requestCount = 0

    public init(feed: Feed, cacheDirectory: URL, transport: any HTTPTransporting,
                configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        self.feed = feed
        self.store = PageStore(cacheDirectory: cacheDirectory, feedID: feed.id)
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
    }

    /// Loads page `number` (1-based).
    ///
    /// - `.returnCacheElseLoad` (default): the page on disk when present, else the network.
    /// - `.reloadIgnoringCache`: the network; the file is replaced only by a 2xx answer whose body is
    ///   JSON holding an item array, otherwise it stays byte-identical and the error is thrown.
    /// - `.returnCacheDontLoad`: the disk only; `RiffleError.notCached` when absent.
    /// - `.returnCacheThenLoad`: as `.reloadIgnoringCache` here; use `pages(_:)` to get both values.
    public func load(_ number: Int, policy: CachePolicy = .returnCacheElseLoad) async throws(RiffleError) -> Page {
        switch policy {
        case .returnCacheElseLoad, .returnCacheDontLoad:
            if let page = cachedPage(number) { return page }
            if policy == .returnCacheDontLoad { throw .notCached }
        case .reloadIgnoringCache, .returnCacheThenLoad:
            break
        }
        return try await fetch(number)
    }

    /// The page on disk, or nil. A stored file that no longer parses is removed and logged: a miss, never a crash.
    public func cachedPage(_ number: Int) -> Page? {
        guard let (data, metadata) = store.read(number) else { return nil }
        do {
            let items = try ItemExtractor.items(in: data)
            return Page(number: number, items: items, data: data, source: .disk,
                        fetchedAt: metadata?.fetchedAt ?? .distantPast, status: metadata?.status ?? 200)
        } catch {
            configuration.log("removed corrupt cache file \(store.bodyURL(number).lastPathComponent): \(error)")
            store.remove(number)
            return nil
        }
    }

    private func fetch(_ number: Int) async throws(RiffleError) -> Page {
        let task: Task<Page, any Error>
        if let shared = inFlight[number] {
            task = shared
        } else {
            task = Task { try await self.fetchInTurn(number) }
            inFlight[number] = task
        }
        do {
            return try await task.value
        } catch {
            throw error as? RiffleError ?? RiffleError(error, url: feed.url(forPage: number))
        }
    }

    private func fetchInTurn(_ number: Int) async throws -> Page {
        // Removal happens on the actor after the result exists, so a caller arriving in between still
        // joins this task and gets its result.
        defer { inFlight[number] = nil }
        await acquireSlot()
        defer { releaseSlot() }
        return try await performFetch(number)
    }

    private func performFetch(_ number: Int) async throws(RiffleError) -> Page {
        let url = feed.url(forPage: number)
        var request = URLRequest(url: url)
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        requestCount += 1
        let response = try await transport.send(request)
        guard (200...299).contains(response.status) else {
            throw .httpStatus(code: response.status, excerpt: Self.excerpt(response.body))
        }
        let items = try ItemExtractor.items(in: response.body)
        let fetchedAt = clock()
        let metadata = PageStore.Metadata(url: url.absoluteString, fetchedAt: fetchedAt, status: response.status,
                                          etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
        try store.write(number, data: response.body, metadata: metadata)
        return Page(number: number, items: items, data: response.body, source: .network,
                    fetchedAt: fetchedAt, status: response.status)
    }

    private func acquireSlot() async {
        if running < max(1, configuration.maxConcurrentFetches) {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func releaseSlot() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()  // the slot passes straight to the next in line
        }
    }

    /// The first line of an error body, short, with control characters removed.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return RiffleError.oneLine(text, limit: 60)
    }
}
