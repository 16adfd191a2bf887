import Foundation
import Synchronization

/// Loads the pages of one feed, keeping each on disk as `feed_<page>.json`, through a `ResponseCache`
/// whose index records each page's fetch time, validators and freshness.
///
/// Page requests go through a `Client` like any other request: its retries (honouring `Retry-After`),
/// plugins and `RIFFLE_LOG`, and its transport. The feed's headers and `${NAME}` query values are added
/// by a credential processor, so they go to the feed's own origin only (a next link or cursor URL
/// elsewhere gets neither), and secrets a server echoes back are taken out before anything is stored.
///
/// An actor: the serial queue of the design. Network fetches run one at a time by default (in the
/// order they were asked for); two loads of the same page share one request; a page on disk is
/// answered at once without waiting behind fetches of other pages.
///
/// ```swift
/// let feed = try Feed(template: "https://lobste.rs/page/{page}.json")
/// let cacheFolder = URL(filePath: NSTemporaryDirectory()).appending(path: "riffle-example")
/// let loader = PageLoader(feed: feed, cacheDirectory: cacheFolder, client: Client(Client.Configuration(baseURL: api)))
/// let page = try await loader.load(1)                           // disk if present, else network
/// let fresh = try await loader.load(1, policy: .reloadIgnoringCache)
/// print(page.items.map(\.title), fresh.source)
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
        /// feed's `maxAge` say (nil: the client's `defaultMaxAge`); a stale page is revalidated
        /// (`If-None-Match`) before use.
        public var maxAge: TimeInterval? = 300
        /// Where `${NAME}` in the feed's headers and query is looked up, at request time.
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        /// Told as soon as a fetched page's answer is read, before it is stored or returned, whether
        /// another page follows it (`false` also when it repeats a page before it). What lets a caller
        /// ask for the next page at the network's pace (`riffle dump` does). Told only for feeds whose
        /// next page's URL is known without the answer (numbered or offset pages), and only once the
        /// page before is known too; the page as loaded stays the authority (`Page.isLastPage`).
        public var answered: @Sendable (_ page: Int, _ more: Bool) -> Void = { _, _ in }

        /// The defaults: see each property.
        public init() {}
    }

    /// The feed whose pages this loader loads.
    public nonisolated let feed: Feed
    /// Where the feed's pages are kept on disk (`feed_<page>.json` and metadata).
    package nonisolated let store: PageStore
    let configuration: Configuration
    nonisolated let clock: @Sendable () -> Date
    /// The response cache the pages go through; shared with the rest of the client when passed in.
    public nonisolated let cache: ResponseCache
    /// The caller's client, with the feed's headers and query credentials for the feed's origin.
    nonisolated let client: Client
    /// How many items the feed's requests ask for a page (`Feed.requestedPageSize`), read once: it
    /// builds and parses page 1's URL, and every page loaded asks it twice (its end, its extent).
    nonisolated let requestedPageSize: Int?

    var inFlight: [Int: Task<Page, any Error>] = [:]
    /// The pages `inFlight` holds, readable from the transport's thread (`readAhead`).
    nonisolated let fetching = Mutex<Set<Int>>([])
    /// The pages a caller said it will load next (`readAhead(_:policy:)`); nil: none.
    nonisolated let readAheadPlan = Mutex<ReadAheadPlan?>(nil)
    /// Answers parsed on the transport's thread while reading ahead, by page, for the page's own check.
    nonisolated let parsedAhead = Mutex<[Int: (body: Data, parsed: ParsedBody)]>([:])
    /// What each page held as last read or fetched, to tell a page that repeats one before it (and,
    /// for page 1, how many items a server serves a page: `countingPageSize`).
    nonisolated let fingerprints = Mutex(Fingerprints())
    /// Each page's URL and next link as last fetched or read in this run, so a cursor feed moves on
    /// even when its pages could not be stored (a full disk).
    nonisolated let links = Mutex(PageLinks())
    private nonisolated let limit: ConcurrencyLimit
    /// The mapping pages are read with when the browser's field picker changed it; nil: the feed's.
    private nonisolated let chosenFields = Mutex<FieldMapping?>(nil)
    /// Pages peeked from their files' own records and not yet checked against the index
    /// (`confirmPeekedPages`), with what each was read as.
    private nonisolated let unconfirmed = Mutex<[Int: RecordCheck]>([:])
    /// Origins other than the feed's that pages were fetched from, each logged once.
    private nonisolated let foreignOrigins = Mutex<Set<Origin>>([])
    /// Loads that joined a fetch already in flight instead of starting their own (for tests).
    public private(set) var joinedCount = 0
    /// Requests sent so far, retries and redirects included (for tests and the benchmark).
    public var requestCount: Int { limit.requestCount }

    /// A loader with a response cache of its own on `cacheDirectory`, sending through `client`: for a
    /// program with one feed. A program with several makes one `ResponseCache` and passes it to each
    /// loader (`init(feed:cache:client:configuration:clock:)`), so one connection to the index and
    /// one de-duplication table serve them all.
    public init(feed: Feed, cacheDirectory: URL, client: Client,
                configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        var cacheConfiguration = ResponseCache.Configuration()
        cacheConfiguration.log = configuration.log
        self.init(feed: feed, cache: ResponseCache(directory: cacheDirectory, configuration: cacheConfiguration, clock: clock),
                  client: client, configuration: configuration, clock: clock)
    }

    /// A loader with a response cache of its own on `cacheDirectory` and a default `Client` on `transport`.
    public init(feed: Feed, cacheDirectory: URL, transport: any HTTPTransporting = CurlTransport(),
                configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        let client = Client(Client.Configuration(baseURL: feed.url(forPage: 1), environment: configuration.environment), transport: transport)
        self.init(feed: feed, cacheDirectory: cacheDirectory, client: client, configuration: configuration, clock: clock)
    }

    /// A loader whose pages live in `cache`'s folder and go through it (so they count towards its
    /// size limit and share its de-duplication), sending through `client`.
    public init(feed: Feed, cache: ResponseCache, client: Client,
                configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = Date.init) {
        self.feed = feed
        self.cache = cache
        self.store = PageStore(cacheDirectory: cache.directory, feedID: feed.id)
        self.configuration = configuration
        self.clock = clock
        self.client = client.forFeed(feed, headers: configuration.headers, environment: configuration.environment)
        requestedPageSize = feed.requestedPageSize
        limit = ConcurrencyLimit(configuration.maxConcurrentFetches)
    }

    /// The field mapping pages are read with: the feed's `fields`, until `readFields(with:)` changes it.
    package nonisolated var fields: FieldMapping { chosenFields.withLock { $0 } ?? feed.fields }

    /// Reads every page from now on with `fields` instead of the feed's own (the browser's field
    /// picker, once the choice is saved): pages already stored read anew on their next load or peek.
    package nonisolated func readFields(with fields: FieldMapping) { chosenFields.withLock { $0 = fields } }

    /// The plan stored page `number` is read by, with its evidence and runners-up (what `riffle
    /// inspect` prints for page 1); nil when the page is not on disk.
    /// - Throws: the page's `FeedError` when its file no longer reads as a page.
    package nonisolated func fieldPlan(forPage number: Int) throws(FeedError) -> FieldPlan? {
        guard let stored = storedOnDisk(number) ?? store.stored(number, in: cache.reader) else { return nil }
        let document = try ItemExtractor.document(stored.data, stored: true)
        let url = stored.metadata?.baseURL ?? feed.url(forPage: 1)
        return try ItemExtractor.plan(in: document, itemPath: feed.itemPath, fields: fields, baseURL: url)
    }

    /// Loads page `number` (1-based).
    ///
    /// - `.returnCacheElseLoad` (default): the page on disk when fresh (`.cache`), else the network,
    ///   revalidating with `If-None-Match` (`.revalidated` on a 304); when the network fails, the page
    ///   on disk marked `.stale`.
    /// - `.reloadIgnoringCache`: the network; the file is replaced only by a 2xx answer whose body is
    ///   JSON holding an item array, otherwise it stays byte-identical and the error is thrown.
    /// - `.returnCacheDontLoad`: the disk only (`.cache`, or `.stale` when past its age); `.request(.notCached)` when absent.
    /// - `.returnCacheThenLoad`: the network, revalidating; use the cache's `responses` to get both values.
    ///
    /// A page that repeats the page before it (a server ignoring `{page}`), or an earlier page this
    /// run read (a next link leading back), comes back empty and last, its `endReason` saying so. A
    /// numbered or offset page the server refuses with 400, 404, 410, 416 or 422 right after a short
    /// page comes back empty and last too (`endsAtFailure`), and so does a page past the first that the
    /// server answers with no content at all (204, an empty 200); page 1 so answered is `.noContent`.
    public func load(_ number: Int, policy: CachePolicy = .returnCacheElseLoad) async throws(FeedError) -> Page {
        switch policy {
        case .returnCacheElseLoad, .returnCacheDontLoad:
            // Answered here, without waiting behind fetches of other pages.
            if let page = await storedPage(number, policy: policy), page.source == .cache || policy == .returnCacheDontLoad {
                return await endingRepeat(page)
            }
            if policy == .returnCacheDontLoad { throw .request(.notCached) }
            // Past a stored last page there is nothing to ask for; only an explicit reload asks again.
            if number > 1, await endsFeed(number - 1) { return endPage(number) }
        case .reloadIgnoringCache, .returnCacheThenLoad:
            break
        }
        let page: Page
        do {
            page = try await fetch(number, policy: policy)
        } catch {
            // A page past the first answered with no content (204, an empty 200): the server has no
            // more to give. Nothing was stored, so a page kept from before stays on disk.
            if number > 1, error == .noContent { return endPage(number) }
            guard await endsAtFailure(number, error) else { throw error }
            return endPage(number)
        }
        return await endingRepeat(page)
    }

    /// The page on disk without touching the loader's state, or nil (also when the file does not
    /// parse). Callable from any thread: a browser paints its first frame from it without waiting
    /// for the actor.
    ///
    /// The page is trusted by the record its file carries (whose request it answers, how fresh it
    /// is, its size), without opening the cache's index; a file without one is looked up in the
    /// index as before. A page stored for other credentials (another cache key) is nil either way.
    /// What was read from a record is checked against the index by `confirmPeekedPages`, which a
    /// caller runs once what it painted is on screen.
    public nonisolated func peekCachedPage(_ number: Int) -> Page? {
        switch store.recorded(number, in: cache.reader) {
        case .page(let stored, let check)?:
            guard let url = pageURL(number), let request = try? pageRequest(number, url: url), stored.key == CacheKey(request),
                  let page = try? page(number, stored: stored) else { return nil }
            unconfirmed.withLock { $0[number] = check }
            return endingRepeatNow(page)
        case .unrecorded?:
            guard let stored = storedOnDisk(number), let page = try? page(number, stored: stored) else { return nil }
            return endingRepeatNow(page)
        case nil:
            return nil
        }
    }

    /// What the index says of the pages `peekCachedPage` read from their files' own records since
    /// the last call: nothing for a page it describes as it was read; otherwise the page as the index
    /// has it (`.corrected`), or nil when the index does not vouch for it at all (another
    /// request's or credentials' answer, a file it does not name, no row): such a page must leave
    /// the screen. Opens the index; callable from any thread.
    package nonisolated func confirmPeekedPages() -> [PeekCorrection] {
        let peeked = unconfirmed.withLock { peeked in
            defer { peeked.removeAll() }
            return peeked
        }
        return peeked.sorted { $0.key < $1.key }.compactMap { number, check in
            guard !store.confirms(number, check, in: cache.reader) else { return nil }
            let page = storedOnDisk(number).flatMap { try? self.page(number, stored: $0) }.map(endingRepeatNow)
            return PeekCorrection(number: number, page: page)
        }
    }

    /// The page on disk, or nil. A stored file that no longer parses is removed and logged: a miss, never a crash.
    public func cachedPage(_ number: Int) async -> Page? {
        guard let page = await rawCachedPage(number) else { return nil }
        return await endingRepeat(page)
    }

    /// `cachedPage` as the file holds it, a repeat of the page before included.
    func rawCachedPage(_ number: Int) async -> Page? {
        guard let stored = storedOnDisk(number) else { return nil }
        do {
            return try page(number, stored: stored)
        } catch {
            configuration.log("removed corrupt cache file \(store.bodyURL(number).lastPathComponent): \(error)")
            await cache.remove(stored.key)
            return nil
        }
    }

    /// Page `number` as stored, when it answers the request this loader would send for it (its URL,
    /// in a chain the one the previous page points to, and the same credentials).
    nonisolated func storedOnDisk(_ number: Int) -> PageStore.Stored? {
        guard let stored = store.stored(number, in: cache.reader), let url = pageURL(number), let request = try? pageRequest(number, url: url),
              stored.key == CacheKey(request) else { return nil }
        return stored
    }

    private func fetch(_ number: Int, policy: CachePolicy) async throws(FeedError) -> Page {
        let task: Task<Page, any Error>
        let started: Bool
        if let shared = inFlight[number] {
            task = shared
            joinedCount += 1
            started = false
        } else {
            fetching.withLock { _ = $0.insert(number) }
            task = startFetch(number, policy: policy)
            inFlight[number] = task
            started = true
        }
        // The caller that started the fetch removes it once the result exists (always: the task is
        // not cancelled with its callers), so a caller arriving in between still joins it.
        defer {
            if started {
                inFlight[number] = nil
                fetching.withLock { _ = $0.remove(number) }
            }
        }
        do {
            return try await task.value
        } catch let error as FeedError {
            throw error
        } catch {
            throw .request(RiffleError(wrapping: error))
        }
    }

    /// A numbered page's URL is known at once: its fetch starts off the actor, right away, rather
    /// than behind every job queued on the actor first (a dump of 200 pages queues 200 cache lookups,
    /// and at one fetch at a time the first request would wait for all of them).
    private func startFetch(_ number: Int, policy: CachePolicy) -> Task<Page, any Error> {
        if feed.pagination.isSequential && number > 1 || placedByFirstPage(number) {
            return Task { try await self.fetchInTurn(number, policy: policy) }
        }
        guard let url = pageURL(number) else { return Task { self.endPage(number) } }
        return Task.detached(priority: Task.currentPriority) { try await self.performFetch(number, url: url, policy: policy) }
    }

    /// Whether page `number` of an offset feed waits for page 1: where it starts depends on what page 1
    /// held (`offsetStep`), and neither this run nor the disk knows yet.
    private nonisolated func placedByFirstPage(_ number: Int) -> Bool {
        guard case .offset = feed.pagination.style, number > 1 else { return false }
        return firstPageItems() == nil
    }

    /// A sequential feed's page: its URL is in the previous page's answer. An offset feed's page
    /// placed by page 1 (`placedByFirstPage`): page 1 is loaded first.
    private func fetchInTurn(_ number: Int, policy: CachePolicy) async throws -> Page {
        if placedByFirstPage(number) { _ = try await load(1) }
        if feed.pagination.isSequential, number > 1 {
            // Page N's URL is in page N-1's answer: let a fetch of N-1 finish, or load it (and so 1...N-1) first.
            if let previous = inFlight[number - 1] { _ = try? await previous.value }
            // Without N-1's metadata its next URL is unknown, even when its body is on disk: fetch it again.
            if link(number - 1) == nil { _ = try await load(number - 1, policy: .reloadIgnoringCache) }
        }
        guard let url = pageURL(number) else { return endPage(number) }
        // A next link back to a page this run had (cursor A, then B, then A again) goes round for
        // ever, whatever the pages hold (a timestamp, items that change on every answer).
        if feed.pagination.isSequential, let earlier = links.withLock({ $0.firstPage(at: url.absoluteString, before: number) }) {
            var end = endPage(number)
            end.endReason = repeatReason(earlier, before: number)
            return end
        }
        return try await performFetch(number, url: url, policy: policy)
    }

    // Nonisolated: parsing and the metadata write run beside the next transfer, not in its way on the actor.
    private nonisolated func performFetch(_ number: Int, url: URL, policy: CachePolicy) async throws(FeedError) -> Page {
        if let origin = Origin(url), origin != Origin(feed.url(forPage: 1)), foreignOrigins.withLock({ $0.insert(origin).inserted }) {
            configuration.log("page \(number) is at another origin (\(origin)): the feed's headers and query keys are not sent there")
        }
        let parsedBody = ParsedBodyBox()
        let reply: ClientResponse<ParsedBody>
        do {
            reply = try await client.perform(pageEndpoint(number, url: url, policy: policy == .returnCacheDontLoad ? .returnCacheElseLoad : policy,
                                                          keep: parsedBody),
                                             context: TransferContext(followOn: followOn(after: number, url: url)),
                                             target: cacheTarget(number, url: url, parsed: parsedBody))
        } catch {
            throw FeedError(error)
        }
        // Where the answer came from: a redirect's target (its relative links are read against it).
        // An answer the cache gave back (stale, or fresh) carries the URL asked; its note says where it came from.
        let answer = reply.source == .network || reply.source == .revalidated
            ? Self.moved(url, to: reply.response.url) : storedMetadata(number)?.answeredFrom.flatMap { URL(string: $0) }
        // Read against where it came from: the answer's check read it against the URL asked.
        let parsed = answer.flatMap { try? parse(reply.response.body, stored: false, url: $0) } ?? reply.value
        // From headers and a body that were redacted before storing (`Feed.redactor`), so no query key.
        let next = feed.pagination.nextURL(after: url, answeredFrom: answer, headers: reply.response.headers,
                                           document: parsed.document, array: parsed.array)
        links.withLock { $0[number] = PageLink(url: url.absoluteString, next: next?.absoluteString) }
        var page = page(number, parsed: parsed, data: reply.response.body, source: reply.source, fetchedAt: reply.fetchedAt,
                        status: reply.response.status, next: next?.absoluteString, known: true,
                        lastByHeaders: headersSayLast(reply.response.headers, page: number, itemCount: parsed.items.count))
        page.freshUntil = reply.freshUntil
        return page
    }

    /// The endpoint of page `number` at `url`: the feed's method and body, its answer checked and read by
    /// `parse` before anything is stored, the loader's serial queue as its limit. A page is a read
    /// whatever its method: cached by body, retried, and shared with an identical load (by the cache).
    /// - Parameter keep: where the body read before storing is kept, for the page's note.
    nonisolated func pageEndpoint(_ number: Int, url: URL, policy: CachePolicy, keep: ParsedBodyBox? = nil) -> Endpoint<ParsedBody> {
        var endpoint = Endpoint<ParsedBody>(method: feed.request.method, target: .url(url), query: [], body: feed.body(forPage: number, offsetStep: offsetStep(page: number)),
                                            headers: [:], timeout: nil, cachePolicy: policy, maxAge: effectiveMaxAge, shape: nil,
                                            decoding: .raw { body throws(RiffleError) in
                                                // A page without items is refused before it is stored;
                                                // its `FeedError` reaches the loader's caller unchanged.
                                                let parsed: ParsedBody
                                                if let ahead = self.takeParsedAhead(number, body: body) {
                                                    parsed = ahead
                                                } else {
                                                    do throws(FeedError) { parsed = try self.parse(body, stored: false, url: url) } catch {
                                                        throw error.carried
                                                    }
                                                }
                                                keep?.value.withLock { $0 = (body, parsed) }
                                                self.noteAnswer(number, parsed: parsed, body: body)
                                                return parsed
                                            })
        endpoint.limit = limit
        endpoint.cacheEligibility = .anyMethod
        endpoint.retry = .always
        // Pages always go through the cache, whose own table shares a page's transfer: the client's
        // would only add a key to compute.
        endpoint.duplicates = .send
        endpoint.name = "page \(number)"
        // Checked on the tape by `parse` for 2xx pages; the client reads it from error answers.
        endpoint.envelope = feed.envelope.map { .rule($0) } ?? .none
        return endpoint
    }
}

/// A page painted from its file's own record that the index described otherwise
/// (`PageLoader.confirmPeekedPages`).
package struct PeekCorrection: Sendable {
    /// The page's number.
    package var number: Int
    /// The page as the index has it; nil when the index does not vouch for the file at all.
    package var page: Page?

    package init(number: Int, page: Page?) {
        self.number = number
        self.page = page
    }
}
