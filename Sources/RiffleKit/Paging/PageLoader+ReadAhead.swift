import Foundation
import Synchronization

/// Reading ahead: page N+1's request leaves the moment page N's answer is complete and says another
/// page follows.
///
/// Without it, a caller that loads pages one after another asks for page N+1 once page N came back,
/// and between the two lie the page's check and the threads it crosses: the transport's, the pool's
/// that reads the answer, the caller's loop, the loader's and the cache's, each a thread woken up.
/// With it, the transport reads page N's answer on its own thread (the loader's `parse`, whose result
/// the page's check then takes instead of parsing again) and sends page N+1's request right there;
/// the caller's `load(N+1)` goes its usual way (cache, retries, plugins) and, where it would send the
/// request, takes the one already on its way (`FollowOn`).
extension PageLoader {
    /// The pages a caller will load next, and the policy it loads them with.
    struct ReadAheadPlan: Sendable {
        var pages: ClosedRange<Int>
        var policy: CachePolicy
    }

    /// Tells the loader that its caller will load `pages` in order with `policy`: once a page's
    /// answer arrives from the network and says another page follows, that page's request is sent at
    /// once, when it is in `pages`, and the caller's `load` of it takes that request's answer instead
    /// of sending its own.
    ///
    /// What is sent ahead is what the caller's `load` would send: nothing for a page stored already
    /// unless `policy` is `.reloadIgnoringCache` (the cache answers it, or revalidates it, as usual),
    /// nothing with `.returnCacheDontLoad`; only one page past a page that says more follow (never
    /// past one that says it is the last, is empty, or repeats the page before), and only while the
    /// caller still waits for that page; within the loader's `maxConcurrentFetches`. Numbered and
    /// offset feeds only: a cursor feed's next URL may be in headers read later. Nil stops it.
    ///
    /// ```swift
    /// let feed = try Feed(template: "https://lobste.rs/page/{page}.json")
    /// let loader = PageLoader(feed: feed, cacheDirectory: URL(filePath: "/tmp/riffle-example"), client: client)
    /// loader.readAhead(1...20)
    /// for number in 1...20 {
    ///     let page = try await loader.load(number)   // from page 2 on, its request left already
    ///     print(page.items.count)
    ///     if page.isLastPage { break }
    /// }
    /// ```
    public nonisolated func readAhead(_ pages: ClosedRange<Int>?, policy: CachePolicy = .returnCacheElseLoad) {
        readAheadPlan.withLock { $0 = pages.map { ReadAheadPlan(pages: $0, policy: policy) } }
    }

    /// What follows page `number`'s answer (fetched from `url`) when reading ahead: nil when nothing
    /// may. The plan is read again when the answer is there.
    nonisolated func followOn(after number: Int, url: URL) -> FollowOn? {
        guard !feed.pagination.isSequential, readAheadPlan.withLock({ $0 != nil }) else { return nil }
        return FollowOn { response in self.requestAhead(after: number, url: url, response: response) }
    }

    /// Page `number + 1`'s request and what follows it, when page `number`'s answer `response` says
    /// it follows and the caller would send it. Runs on the transport's thread.
    private nonisolated func requestAhead(after number: Int, url: URL, response: HTTPResponse) -> (request: HTTPRequest, then: FollowOn?)? {
        let next = number + 1
        guard (200...299).contains(response.status), let plan = readAheadPlan.withLock({ $0 }), plan.pages.contains(next),
              plan.policy != .returnCacheDontLoad,
              // Asked for already: its own request is on its way, or its answer is (and the page is
              // not stored yet). The transport's own rule covers only a request still in flight.
              !fetching.withLock({ $0.contains(next) }),
              // Stored: the cache answers it, or revalidates it, as the caller's policy says.
              plan.policy == .reloadIgnoringCache || !store.holds(next, in: cache.reader),
              let parsed = try? parse(response.body, stored: false, url: url) else { return nil }
        // The page's own check takes this parse rather than doing it again.
        parsedAhead.withLock { kept in
            kept = kept.filter { $0.key > number - 4 }
            kept[number] = (response.body, parsed)
        }
        // Remembered now: where an offset feed's page 2 starts depends on what page 1 held (`offsetStep`).
        guard follows(number, parsed: parsed, body: response.body, remember: true) == true, let nextURL = pageURL(next),
              let request = try? pageRequest(next, url: nextURL) else { return nil }
        return (request, followOn(after: next, url: nextURL))
    }

    /// The parse `requestAhead` made of page `number`'s answer, when `body` is that answer.
    nonisolated func takeParsedAhead(_ number: Int, body: Data) -> ParsedBody? {
        parsedAhead.withLock { kept in
            guard let ahead = kept.removeValue(forKey: number), ahead.body == body else { return nil }
            return ahead.parsed
        }
    }
}
