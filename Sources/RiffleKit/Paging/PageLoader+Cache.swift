import Foundation
import Synchronization

extension PageLoader {
    /// The request for page `number` at `url` as the client sends it (the feed's headers, `${NAME}`
    /// expanded now and never stored); its cache key is the page's index row.
    package nonisolated func pageRequest(_ number: Int, url: URL) throws(RiffleError) -> HTTPRequest {
        try client.request(for: pageEndpoint(number, url: url, policy: .returnCacheElseLoad))
    }

    /// The feed's own max age, else the configuration's; the server's headers override both.
    nonisolated var effectiveMaxAge: TimeInterval? { feed.maxAge ?? configuration.maxAge }

    /// A page body read once: its items, the document they were read from (cursor, `hasMore` and
    /// the end-of-feed signals are read from it too) and where in it the item array is.
    struct ParsedBody: Sendable {
        var items: [Item]
        var document: JSONDocument
        var array: Int
    }

    /// Reads a body with the feed's item path and field mapping (`ItemExtractor`, on the lazy tape);
    /// links that are paths are resolved against `url`, the page's (else page 1's).
    /// Throws for what must never be stored: no content, not JSON, a failure envelope, no item array.
    /// - Parameter stored: whether `body` was read back from disk, where only bodies that passed this
    ///   check (with `stored: false`) are written: then only its structure is checked
    ///   (`JSONDocument.Validation.structure`): a truncated or garbled file still throws, a string
    ///   damaged in place reads with U+FFFD.
    nonisolated func parse(_ body: Data, stored: Bool, url: URL?) throws(FeedError) -> ParsedBody {
        // 204 No Content, or a 2xx with nothing but blanks (after a byte-order mark, as .NET writes an
        // empty UTF-8 answer): no answer to read, not a broken one.
        if !stored, (body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body[...])
            .allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { throw .noContent }
        let document = try ItemExtractor.document(body, stored: stored, from: stored ? nil : url ?? feed.url(forPage: 1))
        if let failure = feed.envelope?.failure(in: document) { throw .request(failure) }
        let list = try ItemExtractor.list(in: document, itemPath: feed.itemPath, fields: fields, baseURL: url ?? feed.url(forPage: 1))
        return ParsedBody(items: list.items, document: document, array: list.array)
    }

    /// A page read from the index and its file, parsed once.
    nonisolated func page(_ number: Int, stored: PageStore.Stored) throws(FeedError) -> Page {
        let fetchedAt = stored.metadata?.fetchedAt ?? .distantPast
        var page = try page(number, data: stored.data, source: .cache, fetchedAt: fetchedAt, status: stored.metadata?.status ?? 200,
                            next: stored.metadata?.next, known: stored.metadata != nil, url: stored.metadata?.baseURL,
                            lastByHeaders: stored.metadata?.last == true)
        if let url = stored.metadata.flatMap({ URL(string: $0.url) }) {
            page.freshUntil = client.lifetime(for: pageEndpoint(number, url: url, policy: .returnCacheElseLoad))
                .expiry(fetchedAt: fetchedAt, serverMaxAge: stored.serverMaxAge)
        }
        return page
    }

    /// A page from its bytes, which were read from disk (see `parse(_:stored:url:)`); `url` is where they were fetched from.
    /// - Parameter lastByHeaders: the answer's headers said the page is the last (`headersSayLast`).
    nonisolated func page(_ number: Int, data: Data, source: Page.Source, fetchedAt: Date, status: Int,
                          next: String?, known: Bool, url: URL?, lastByHeaders: Bool = false) throws(FeedError) -> Page {
        page(number, parsed: try parse(data, stored: true, url: url), data: data, source: source, fetchedAt: fetchedAt, status: status,
             next: next, known: known, lastByHeaders: lastByHeaders)
    }

    /// A page from a body already read.
    /// - Parameter lastByHeaders: the answer's headers said the page is the last (`headersSayLast`).
    nonisolated func page(_ number: Int, parsed: ParsedBody, data: Data, source: Page.Source, fetchedAt: Date, status: Int,
                          next: String?, known: Bool, lastByHeaders: Bool = false) -> Page {
        // Read once for both: whether the page is the last, and how long the feed is.
        let signals = EndSignals(parsed.document, around: parsed.array)
        var page = Page(number: number, items: parsed.items, data: data, source: source, fetchedAt: fetchedAt, status: status,
                        isLastPage: lastByHeaders || isLast(number, parsed: parsed, next: next, known: known, signals: signals))
        (page.totalPages, page.totalItems) = feed.pagination.extent(signals: signals,
                                                                   pageSize: countingPageSize(page: number, itemCount: parsed.items.count))
        // A URL given without `{page}` to an API that numbers its pages and links to none (Algolia's
        // `nbPages: 50`): the feed ends here for want of a link, which the page says is not its end.
        if page.isLastPage, case .linkHeader = feed.pagination.style, known, next == nil, !parsed.items.isEmpty,
           let pages = page.totalPages, pages > number {
            page.endReason = "the answers link to no page \(number + 1), though they count \(pages) pages: "
                + "put {page} in the URL where the page number goes"
        }
        remember(page)
        return page
    }

    /// The loader's cache for the client's pipeline, keeping page `number`'s body in its file
    /// (`PageStore`'s) and its URL and next link (from the body `parsed` kept, read before storing)
    /// in its row's note.
    nonisolated func cacheTarget(_ number: Int, url: URL, parsed: ParsedBodyBox) -> CacheTarget {
        store.target(number, in: cache, note: { response in
            let kept = parsed.value.withLock { $0 }
            let body = kept.flatMap { $0.body == response.body ? $0.parsed : nil } ?? (try? self.parse(response.body, stored: false, url: url))
            let next = body.flatMap {
                self.feed.pagination.nextURL(after: url, answeredFrom: response.url, headers: response.headers, document: $0.document,
                                             array: $0.array)
            }
            let last = body.map { self.headersSayLast(response.headers, page: number, itemCount: $0.items.count) } ?? false
            return PageStore.note(url: url.absoluteString, next: next?.absoluteString, last: last,
                                  answeredFrom: Self.moved(url, to: response.url)?.absoluteString)
        })
    }

    /// The page from the cache with no request: `.cache` when fresh, `.stale` when not; nil on a miss.
    /// A page that no longer parses is removed and logged.
    func storedPage(_ number: Int, policy: CachePolicy = .returnCacheElseLoad) async -> Page? {
        // A page's body is only ever kept in its own file: without the file there is nothing to look
        // up. This answers a miss here, with no trip through the cache's actor, so asking for many
        // new pages at once does not queue a lookup per page in front of the first page's request.
        guard store.holds(number, in: cache.reader) else { return nil }
        // Where the page would be fetched from: in a chain (cursor, Link) the URL the previous page
        // points to. A page stored from another URL (the chain moved on) is another entry: a miss.
        guard let url = pageURL(number) else { return nil }
        // One endpoint for the request and its lifetime.
        let endpoint = pageEndpoint(number, url: url, policy: .returnCacheElseLoad)
        let request: HTTPRequest
        do { request = try client.request(for: endpoint) } catch {
            // A variable the feed's requests need is unset: only the network needs it, so a read from
            // the cache alone (`--offline`) gets the page as it was stored.
            guard policy == .returnCacheDontLoad, case .missingEnvironment = FeedError(error) else { return nil }
            return pageAsStored(number)
        }
        // The request's key covers its credentials: a page stored for another token is a miss.
        let lifetime = client.lifetime(for: endpoint)
        guard let value = await cache.cachedValue(for: request, lifetime: lifetime) else { return nil }
        let metadata = PageStore.metadata(value.note, fetchedAt: value.fetchedAt, status: value.response.status, etag: nil, lastModified: nil)
        if let metadata { links.withLock { $0[number] = PageLink(url: metadata.url, next: metadata.next) } }
        do {
            var page = try page(number, data: value.response.body, source: value.source, fetchedAt: value.fetchedAt,
                                status: value.response.status, next: metadata?.next, known: metadata != nil,
                                url: metadata?.answeredFrom.flatMap { URL(string: $0) } ?? url,
                                lastByHeaders: metadata?.last == true)
            page.freshUntil = value.freshUntil
            return page
        } catch {
            configuration.log("removed corrupt cache file \(store.bodyURL(number).lastPathComponent): \(error)")
            await cache.removeResponse(for: request)
            return nil
        }
    }

    /// Page `number` from its file and index row with no identity check: `.cache` while fresh, else
    /// `.stale`. For a cache-only read when a variable the feed's requests need is unset (no request
    /// can be made, so none is).
    nonisolated func pageAsStored(_ number: Int) -> Page? {
        guard let stored = store.stored(number, in: cache.reader), var page = try? page(number, stored: stored) else { return nil }
        // Fresh only while its known freshness lasts.
        if page.freshUntil.map({ clock() >= $0 }) ?? true { page.source = .stale }
        return page
    }
}

extension PageLoader {
    /// `answer`, where page `url`'s answer came from, when a redirect led to another origin or path
    /// (what relative links are read against, RFC 3986 §5.1.3); nil when it did not move. The query
    /// is not compared: credentials added to it, and redacted in the answer, make no move.
    nonisolated static func moved(_ url: URL, to answer: URL?) -> URL? {
        guard let answer, Origin(answer) != Origin(url) || answer.path != url.path else { return nil }
        return answer
    }
}

/// A page's URL and the next page's, as its answer gave them.
struct PageLink: Sendable, Equatable {
    var url: String
    var next: String?
}

/// Each page's `PageLink` as fetched or read in this run, with the pages found by their URL, so a
/// next link that leads back to a page already had is seen without going through every page.
struct PageLinks: Sendable {
    private var pages: [Int: PageLink] = [:]
    private var byURL: [String: Set<Int>] = [:]

    subscript(number: Int) -> PageLink? {
        get { pages[number] }
        set {
            pages[number] = newValue
            if let url = newValue?.url { byURL[url, default: []].insert(number) }
        }
    }

    /// The first page before page `limit` whose URL is `url`, if any.
    func firstPage(at url: String, before limit: Int) -> Int? {
        byURL[url]?.filter { $0 < limit && pages[$0]?.url == url }.min()
    }
}

/// The body a page's check read before it was stored, kept for the page's note so it is read once.
final class ParsedBodyBox: Sendable {
    let value = Mutex<(body: Data, parsed: PageLoader.ParsedBody)?>(nil)
}

extension PageLoader {
    /// Where page `number` is kept on disk: `feeds/<feed-id>/feed_<number>.json` in the cache's
    /// folder, holding the exact bytes the server sent (nothing else is in it). The file exists only
    /// once the page was stored; the cache owns it, so read it, never write or delete it.
    ///
    /// ```swift
    /// let loader = PageLoader(feed: try Feed(template: "https://lobste.rs/page/{page}.json"),
    ///                         cache: ResponseCache(directory: URL(filePath: "/tmp/riffle-example")), client: client)
    /// _ = try await loader.load(1)
    /// let bytes = try Data(contentsOf: loader.fileURL(forPage: 1))    // the page as the server sent it
    /// ```
    public nonisolated func fileURL(forPage number: Int) -> URL {
        store.bodyURL(number)
    }

    /// What the cache's index records of page `number` (its URL, next link, fetch time, status,
    /// validators), without reading its file; nil when it is not stored.
    package nonisolated func storedMetadata(_ number: Int) -> PageStore.Metadata? {
        store.metadata(number, in: cache.reader)
    }

    /// The numbers of the pages the cache holds for this feed, in order.
    package nonisolated func storedPageNumbers() -> [Int] {
        store.pages(in: cache.reader)
    }

    /// Page `number`'s bytes and metadata as stored, without the actor; nil when not stored.
    package nonisolated func storedBody(_ number: Int) -> (data: Data, metadata: PageStore.Metadata?)? {
        store.read(number, in: cache.reader)
    }

    /// Removes this feed's stored pages through the cache: their rows and files, and page files of
    /// this feed that no row names; anything else in the feed's folder stays.
    package func removeStoredPages() async throws(RiffleError) {
        try await cache.removeAll(owner: feed.id, claims: PageStore.isPageFile)
    }
}
