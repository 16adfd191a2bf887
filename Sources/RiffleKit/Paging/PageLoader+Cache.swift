import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PageLoader {
    /// The request for page `number`; its cache key is the page's index row.
    nonisolated func pageRequest(_ number: Int) -> URLRequest {
        var request = URLRequest(url: feed.url(forPage: number))
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Pages keep their `feeds/<feed-id>/feed_<page>.json` file as the body of their cache entry.
    nonisolated func pageLocation(_ number: Int) -> BodyLocation {
        .page(path: "feeds/\(feed.id)/\(store.bodyURL(number).lastPathComponent)", feed: feed.id)
    }

    /// The page from the cache with no request: `.disk` when fresh, `.stale` when not; nil on a miss.
    /// A page that no longer parses is removed and logged.
    func storedPage(_ number: Int) async -> Page? {
        let request = pageRequest(number)
        var value = await cache.cachedValue(for: request, maxAge: configuration.maxAge)
        if value == nil, await adoptUnindexedPage(number, request: request) {
            value = await cache.cachedValue(for: request, maxAge: configuration.maxAge)
        }
        guard let value else { return nil }
        do {
            return Page(number: number, items: try Self.items(in: value.response.body), data: value.response.body,
                        source: Self.source(value.source), fetchedAt: value.fetchedAt, status: value.response.status)
        } catch {
            configuration.log("removed corrupt cache file \(store.bodyURL(number).lastPathComponent): \(error)")
            await cache.removeResponse(for: request)
            store.remove(number)
            return nil
        }
    }

    /// Indexes a page file written before the index knew it (an older Riffle, a rebuilt index), using
    /// its `feed_<page>.meta.json`, so it is revalidated and evicted like any other entry.
    private func adoptUnindexedPage(_ number: Int, request: URLRequest) async -> Bool {
        guard let (data, metadata) = store.read(number), let metadata else { return false }
        let entry = CacheEntry(key: CacheKey(request), status: metadata.status, headers: ["content-type": "application/json"],
                               body: data, fetchedAt: metadata.fetchedAt, etag: metadata.etag, lastModified: metadata.lastModified,
                               serverMaxAge: nil, vary: "", feed: feed.id)
        do { try await cache.adopt(entry, at: pageLocation(number)) } catch { return false }
        return true
    }

    static func items(in body: Data) throws(RiffleError) -> [Item] {
        let document: JSONValue
        do { document = try JSONParser.parse(body) } catch { throw .invalidJSON(offset: error.offset, reason: error.reason) }
        return try ItemExtractor.items(in: document)
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
