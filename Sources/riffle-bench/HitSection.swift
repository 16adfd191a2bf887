import Foundation
import RiffleKit

/// Where a cache hit's time goes (`riffle dump --timings`' per-page `ms` on a warm cache): the whole
/// `PageLoader.load` of a stored, fresh page, then each stage it runs, timed alone on the same pages.
/// Every round uses a new loader and cache (nothing in memory), as each `riffle dump` process does.
struct HitSection {
    let pages = 200
    let rounds = 5

    func run() async throws {
        let server = try BenchFeed.server(pages: pages, latency: .zero)
        defer { server.stop() }
        let feed = try Feed(template: server.template, name: "bench")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-hit-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let filler = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
        for number in 1...pages { _ = try await filler.load(number) }

        print("\nCache hit: \(pages) stored pages of \(BenchFeed.perPage) items, \(rounds) rounds, a new loader each (µs a page)")
        var table = Table("stage", "median", "p90", "what")
        func row(_ name: String, _ samples: [Double], _ what: String) {
            let sorted = samples.sorted()
            table.add(name, String(format: "%.1f", sorted[sorted.count / 2]), String(format: "%.1f", sorted[sorted.count * 9 / 10]), what)
        }
        let clock = ContinuousClock()
        var total: [Double] = [], url: [Double] = [], key: [Double] = [], lookup: [Double] = [], reader: [Double] = []
        var tape: [Double] = [], items: [Double] = []
        for _ in 0..<rounds {
            let loader = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
            for number in 1...pages {
                let start = clock.now
                let page = try await loader.load(number)
                total.append(micros(start.duration(to: clock.now)))
                precondition(page.source == .cache && page.items.count == BenchFeed.perPage, "page \(number) was not a hit")
            }
            // The stages, on a second loader and cache of the same folder (again nothing in memory).
            let staged = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
            for number in 1...pages {
                var start = clock.now
                let pageURL = feed.url(forPage: number)
                url.append(micros(start.duration(to: clock.now)))
                start = clock.now
                let request = try staged.pageRequest(number, url: pageURL)
                blackHole(CacheKey(request))
                key.append(micros(start.duration(to: clock.now)))
                start = clock.now
                let value = await staged.cache.cachedValue(for: request, lifetime: .server(fallback: 300))
                lookup.append(micros(start.duration(to: clock.now)))
                guard let data = value?.response.body else { preconditionFailure("page \(number) was not a hit") }
                start = clock.now
                blackHole(staged.storedBody(number))
                reader.append(micros(start.duration(to: clock.now)))
                start = clock.now
                blackHole(try JSONDocument(data, validation: .structure))
                tape.append(micros(start.duration(to: clock.now)))
                start = clock.now
                blackHole(try ItemExtractor.items(inStoredPage: data, itemPath: feed.itemPath, fields: feed.fields, baseURL: pageURL))
                items.append(micros(start.duration(to: clock.now)))
            }
        }
        row("PageLoader.load, fresh page on disk", total, "what dump --timings reports (less its task's start)")
        row("  Feed.url(forPage:)", url, "the page's URL from the template")
        row("  request + CacheKey", key, "the request as sent, its key (SHA-256)")
        row("  ResponseCache.cachedValue", lookup, "actor hop, index row, page file read, headers")
        row("  (reader: row + file, no actor)", reader, "PageStore through ResponseCache.Reader")
        row("  JSONDocument(.structure)", tape, "the tape of the page's bytes")
        row("  ItemExtractor, stored page", items, "tape + list + field evidence + every Item")
        table.print()
    }
}
