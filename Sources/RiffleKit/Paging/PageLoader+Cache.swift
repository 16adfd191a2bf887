import Foundation

extension PageLoader {
    /// The request for a page at `url` as the client sends it (the feed's headers, `${NAME}` expanded
    /// now and never stored); its cache key is the page's index row.
    nonisolated func pageRequest(url: URL) throws(RiffleError) -> HTTPRequest {
        try client.request(for: pageEndpoint(url: url, policy: .returnCacheElseLoad))
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

    /// Reads a body with the feed's item path and field mapping (`ItemExtractor`, on the lazy tape).
    /// Throws for what must never be stored: not JSON, a failure envelope, no item array.
    /// - Parameter stored: whether `body` was read back from disk, where only bodies that passed this
    ///   check (with `stored: false`) are written: then only its structure is checked
    ///   (`JSONDocument.Validation.structure`): a truncated or garbled file still throws, a string
    ///   damaged in place reads with U+FFFD.
    nonisolated func parse(_ body: Data, stored: Bool) throws(RiffleError) -> ParsedBody {
        let document = try ItemExtractor.document(body, stored: stored)
        if let failure = feed.envelope?.failure(in: document) { throw failure }
        let list = try ItemExtractor.list(in: document, itemPath: feed.itemPath, fields: feed.fields)
        return ParsedBody(items: list.items, document: document, array: list.array)
    }

    /// A page from its bytes read from disk, parsed once.
    nonisolated func page(_ number: Int, data: Data, source: Page.Source, metadata: PageStore.Metadata?) throws(RiffleError) -> Page {
        try page(number, data: data, source: source, fetchedAt: metadata?.fetchedAt ?? .distantPast,
                 status: metadata?.status ?? 200, next: metadata?.next, known: metadata != nil)
    }

    /// A page from its bytes, which were read from disk (see `parse(_:stored:)`).
    nonisolated func page(_ number: Int, data: Data, source: Page.Source, fetchedAt: Date, status: Int,
                          next: String?, known: Bool) throws(RiffleError) -> Page {
        page(number, parsed: try parse(data, stored: true), data: data, source: source, fetchedAt: fetchedAt, status: status, next: next, known: known)
    }

    /// A page from a body already read.
    nonisolated func page(_ number: Int, parsed: ParsedBody, data: Data, source: Page.Source, fetchedAt: Date, status: Int,
                          next: String?, known: Bool) -> Page {
        var page = Page(number: number, items: parsed.items, data: data, source: source, fetchedAt: fetchedAt, status: status,
                        isLastPage: isLast(number, parsed: parsed, next: next, known: known))
        (page.totalPages, page.totalItems) = feed.pagination.extent(parsed.document, itemsAt: parsed.array, pageSize: feed.requestedPageSize)
        return page
    }

    /// Pages keep their `feeds/<feed-id>/feed_<page>.json` file as the body of their cache entry.
    nonisolated func pageLocation(_ number: Int) -> BodyLocation {
        .page(path: "feeds/\(feed.id)/feed_\(number).json", feed: feed.id)
    }

    /// The page from the cache with no request: `.disk` when fresh, `.stale` when not; nil on a miss.
    /// A page that no longer parses is removed and logged.
    func storedPage(_ number: Int) async -> Page? {
        // A page's body is only ever kept in its own file: without the file there is nothing to look
        // up. This answers a miss here, with no trip through the cache's actor, so asking for many
        // new pages at once does not queue a lookup per page in front of the first page's request.
        guard FileManager.default.fileExists(atPath: store.bodyPath(number)) else { return nil }
        // Read once: where the page was fetched from (else where it would be), and its next link.
        let metadata = store.readMetadata(number)
        // In a chain (cursor, Link), a stored page counts only while its predecessor still points to
        // it: once page N-1 was fetched again and names another next page, the old page N is a miss.
        if feed.pagination.isSequential, number > 1, let metadata, let expected = pageURL(number),
           metadata.url != expected.absoluteString {
            return nil
        }
        guard let url = metadata.flatMap({ URL(string: $0.url) }) ?? pageURL(number),
              let request = try? pageRequest(url: url) else { return nil }
        var value = await cache.cachedValue(for: request, maxAge: effectiveMaxAge)
        if value == nil, await adoptUnindexedPage(number, request: request) {
            value = await cache.cachedValue(for: request, maxAge: effectiveMaxAge)
        }
        guard let value else { return nil }
        do {
            return try page(number, data: value.response.body, source: Self.source(value.source), fetchedAt: value.fetchedAt,
                            status: value.response.status, next: metadata?.next, known: metadata != nil)
        } catch {
            configuration.log("removed corrupt cache file \(store.bodyURL(number).lastPathComponent): \(error)")
            await cache.removeResponse(for: request)
            store.remove(number)
            return nil
        }
    }

    /// Indexes a page file written before the index knew it (an older Riffle, a rebuilt index), using
    /// its `feed_<page>.meta.json`, so it is revalidated and evicted like any other entry.
    private func adoptUnindexedPage(_ number: Int, request: HTTPRequest) async -> Bool {
        guard let (data, metadata) = store.read(number), let metadata else { return false }
        let entry = CacheEntry(key: CacheKey(request), status: metadata.status, headers: ["content-type": "application/json"],
                               body: data, fetchedAt: metadata.fetchedAt, etag: metadata.etag, lastModified: metadata.lastModified,
                               serverMaxAge: nil, vary: "", feed: feed.id)
        do { try await cache.adopt(entry, at: pageLocation(number)) } catch { return false }
        return true
    }

    static func source(_ source: CachedResponse.Source) -> Page.Source {
        switch source {
        case .cache: .disk
        case .network: .network
        case .revalidated: .revalidated
        case .stale: .stale
        }
    }
}
