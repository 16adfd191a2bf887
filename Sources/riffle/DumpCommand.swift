import Foundation
import RiffleKit
import Synchronization

/// `riffle dump FEED`: prints a feed's items for scripts, every page through `PageLoader` and the
/// cache, in page order whatever order the pages arrive in.
enum DumpCommand {
    /// What the loop hears about.
    enum Event: Sendable {
        /// Page `number`'s answer was read: another page follows it, or not.
        case answered(Int, more: Bool)
        /// A page is loaded (or failed).
        case done(Outcome)
    }

    /// What became of one page.
    struct Outcome: Sendable {
        var number: Int
        var result: Result<Page, FeedError>
        /// From asking the loader until the items were in memory.
        var duration: Duration
    }

    /// Runs the command; returns 0 when every page arrived, 1 when some failed.
    /// - Parameter started: the earliest moment the process recorded (see DECISIONS.md).
    static func run(_ arguments: Arguments, started: ContinuousClock.Instant = .now) async throws(Arguments.UsageError) -> Int32 {
        let options = try DumpOptions(arguments)
        // A reader that goes away (`| head`) is a failed write (`DumpWriter.failure`), not a signal
        // that ends the process before what was fetched is filed for search.
        signal(SIGPIPE, SIG_IGN)
        let cacheDirectory = try CacheLocation.checked(arguments, create: true)
        let warnings = DumpWarnings()
        // Two kinds of news, in one queue: a page's answer read (whether more follow, told by the
        // loader before the page is stored), and a page done. The next request leaves on the first.
        let (events, news) = AsyncStream<Event>.makeStream()
        var configuration = PageLoader.Configuration()
        configuration.answered = { number, more in news.yield(.answered(number, more: more)) }
        configuration.maxConcurrentFetches = options.concurrency
        // Pages that cannot be stored are still printed; the cache says why once, and so does dump.
        configuration.log = { warnings.add($0) }
        let loader = PageLoader(feed: options.feed, cache: Network.cache(cacheDirectory, log: configuration.log),
                                client: Network.client(for: options.feed, transport: Network.transport()), configuration: configuration)
        // Each page's request leaves as soon as the page before says it follows, from the transport's
        // thread; the loop below still asks for each page, and its load takes that request.
        loader.readAhead(options.pages, policy: options.policy)
        let report = DumpReport(timings: options.timings, progress: isatty(STDERR_FILENO) == 1,
                                total: options.untilEnd ? nil : options.pages.count, warnings: warnings)
        var output = DumpOutput(format: options.format, fields: options.fields)
        // Every item unless `--hide` asks for what the browser lists: a script's output does not
        // change with the rules a reader adds.
        let hiding = options.hide ? options.feed.hide : []
        let writer = DumpWriter()
        await writer.write(Array(output.header.utf8))
        let filing = DumpFiling(feed: options.feed, name: arguments.positionals[0], cacheDirectory: cacheDirectory, warnings: warnings)

        let firstRequest = ContinuousClock.now
        var failures = 0
        var done = 0
        // A discarding group: a page's task is gone once it ends. A plain group keeps every ended child
        // (its task and the memory its calls took) until the group is asked for its results, which this
        // loop never does: 9 KB a page, 1.8 MB at the end of a 200-page dump.
        await withDiscardingTaskGroup { group in
            let pacing = SharedPacing(Pacing(range: options.pages, concurrency: options.concurrency, untilEnd: options.untilEnd,
                                             sequential: options.feed.pagination.isSequential))
            func askAllowed() {
                while let number = pacing.withLock({ $0.nextToAsk() }) {
                    group.addTask {
                        var number = number
                        while true {
                            let start = ContinuousClock.now
                            let result: Result<Page, FeedError>
                            do throws(FeedError) {
                                result = .success(try await MaxAge.load(number, policy: options.policy, maxAge: options.maxAge, loader: loader))
                            } catch {
                                result = .failure(error)
                            }
                            news.yield(.done(Outcome(number: number, result: result, duration: start.duration(to: .now))))
                            // The page says whether more follow: the next page allowed is asked for here, by
                            // this task, rather than by the loop once it wakes to this page (two threads
                            // woken a page, most of a cached page's time).
                            var next: Int?
                            if case .success(let page) = result, !Task.isCancelled {
                                next = pacing.withLock { pacing in
                                    pacing.answered(number, more: !page.isLastPage && !page.items.isEmpty)
                                    return pacing.nextToAsk()
                                }
                            }
                            // Filed when its bytes arrive, printed or not yet: a page read back from the
                            // cache (fresh, revalidated or stale) holds what was filed when it was stored,
                            // so a page stored must be filed even when the dump ends before printing it.
                            if case .success(let page) = result, page.source == .network { await filing.record(page.items) }
                            guard let next else { break }
                            number = next
                        }
                    }
                }
            }
            askAllowed()
            // Pages finish in any order; each is printed as soon as every page before it has been.
            var finished: [Int: Outcome] = [:]
            for await event in events {
                switch event {
                case .answered(let number, let more):
                    pacing.withLock { $0.answered(number, more: more) }
                    askAllowed()
                case .done(let outcome):
                    finished[outcome.number] = outcome
                    while let ready = pacing.withLock({ $0.ended ? nil : finished.removeValue(forKey: $0.nextToPrint) }) {
                        // Asked before printing: the output never holds up the next request.
                        pacing.withLock { $0.printed(ready.result) }
                        askAllowed()
                        switch ready.result {
                        case .success(let page):
                            var out = JSONLineWriter()
                            for item in page.items where !hiding.contains(where: { $0.matches(item) }) { output.append(item, to: &out) }
                            await writer.write(out.bytes)
                            // The feed ended here for a reason of riffle's (a page repeating the one before).
                            if let reason = page.endReason { warnings.add(reason) }
                        case .failure:
                            failures += 1
                        }
                        report.page(ready)
                        done += 1
                    }
                }
                // Nobody takes the output any more: nothing more is asked for.
                if writer.failure != nil { break }
                // Pages asked for past the end are not printed; nothing waits for them.
                let (ended, unasked) = pacing.withLock { ($0.ended, $0.unasked) }
                if ended {
                    if let (pages, reason) = unasked {
                        let which = pages.count == 1 ? "page \(pages.lowerBound) was" : "pages \(pages.lowerBound)-\(pages.upperBound) were"
                        warnings.add("\(which) not asked for: \(reason)")
                    }
                    break
                }
            }
            group.cancelAll()
        }
        news.finish()
        await writer.write(Array(output.footer().utf8))
        await writer.finish()
        await filing.finish()
        if let failure = writer.failure { DumpWriter.end(for: failure) }
        report.summary(pages: done, errors: failures,
                       initial: started.duration(to: firstRequest), total: started.duration(to: .now))
        return failures == 0 ? 0 : 1
    }

    /// `Pacing` shared by the loop and the page tasks, which ask for the next page themselves.
    final class SharedPacing: Sendable {
        private let pacing: Mutex<Pacing>
        init(_ pacing: Pacing) { self.pacing = Mutex(pacing) }
        func withLock<T: Sendable>(_ body: (inout Pacing) -> T) -> T { pacing.withLock { body(&$0) } }
    }

    /// Which pages a dump asks for, and when: in order, never past the feed's end, and never so far
    /// ahead that a short feed costs requests it does not need.
    ///
    /// The first page is asked for alone, then the two after it, then the rest of the first
    /// `concurrency`; a page past those only once every page before it up to `concurrency` back has
    /// arrived and said more follow. So a server that answers every page with the first (it ignores
    /// `{page}`) costs three requests, a feed that ends within the first `concurrency` pages at most
    /// `concurrency` (a 3-page feed, 4 by default: its pages and the empty one after), and a longer one
    /// at most `concurrency` past its end. A page that says it is the last (or is empty, or repeats the
    /// page before) ends the dump. In an open range (`--pages 2-`, `--all`) a failed page ends it too:
    /// where the feed ends past it is unknown.
    struct Pacing {
        let range: ClosedRange<Int>
        let concurrency: Int
        let untilEnd: Bool
        /// Whether each page's URL comes from the page before (a `Link` header, a cursor): past a page
        /// that failed, the next one cannot be found, and asking for it would only ask for the failed
        /// one again.
        let sequential: Bool
        /// Pages asked for so far, from `range.lowerBound`.
        private(set) var asked = 0
        /// Pages printed (or reported failed) so far, in order.
        private(set) var printedCount = 0
        /// How many pages in a row from the start said another page follows: as their answers were
        /// read (`answered`), else as they were printed.
        private(set) var continuing = 0
        /// Pages whose answer was read ahead of their printing, and whether more follow each.
        private var answers: [Int: Bool] = [:]
        /// The feed ended (or, in an open range, a page failed): nothing more is asked or printed.
        private(set) var ended = false
        /// The pages of the range left out because the host could not be reached, and why.
        private(set) var unasked: (pages: ClosedRange<Int>, because: String)?

        init(range: ClosedRange<Int>, concurrency: Int, untilEnd: Bool, sequential: Bool = false) {
            self.range = range
            self.concurrency = max(1, concurrency)
            self.untilEnd = untilEnd
            self.sequential = sequential
        }

        /// The page to print next.
        var nextToPrint: Int { range.lowerBound + printedCount }

        /// The next page to ask for now, if any; counts it as asked.
        mutating func nextToAsk() -> Int? {
            // One page until the first has said more follow, three until the second has: until then
            // the feed may be a server that answers every page alike.
            let opening = continuing == 0 ? 1 : continuing == 1 ? 3 : Int.max
            let allowed = min(opening, continuing < concurrency ? concurrency : continuing + concurrency)
            guard !ended, asked < allowed, asked < range.count else { return nil }
            asked += 1
            return range.lowerBound + asked - 1
        }

        /// Page `number`'s answer was read, before the page was stored or printed: `more` when it
        /// says another page follows. What the page says once loaded still decides where the dump
        /// ends (`printed`); this only lets the next request leave sooner.
        mutating func answered(_ number: Int, more: Bool) {
            guard number >= range.lowerBound + continuing else { return }
            answers[number] = more
            advance()
        }

        /// Page `nextToPrint` was printed (or reported failed).
        mutating func printed(_ result: Result<Page, FeedError>) {
            printedCount += 1
            switch result {
            case .success(let page) where page.isLastPage || page.items.isEmpty: ended = true
            case .failure where untilEnd: ended = true
            case .failure(let error) where Self.everyPageWouldFail(error):
                ended = true
                if printedCount < range.count { unasked = (nextToPrint...range.upperBound, error.description) }
            case .failure where sequential:
                ended = true
                if printedCount < range.count {
                    unasked = (nextToPrint...range.upperBound, "each page's link is in the page before, and page \(nextToPrint - 1) failed")
                }
            case .success, .failure: if continuing == printedCount - 1 { continuing += 1 }
            }
            if printedCount == range.count { ended = true }
            advance()
        }

        /// A failure every later page would meet too: no connection to the host (refused, no answer, no
        /// name, no route) or no secure one, or a server refusing the client rather than the page (401 and
        /// 407, a credential; 403, a credential or a used-up quota, as GitHub's; 429, too many requests). A
        /// dump of 200 pages from a host that drops packets would otherwise wait out the connect timeout
        /// 200 times, and one past a quota would spend 200 more requests on it. A lost connection, another
        /// error status or a timeout after the request went out is the page's own: the dump goes on.
        static func everyPageWouldFail(_ error: FeedError) -> Bool {
            guard case .request(let failure) = error else { return false }
            switch failure {
            case .cannotConnect(_, let reason): return reason != RiffleError.connectionLostReason
            case .dnsFailure, .offline, .tls: return true
            case .httpStatus(let code, _): return [401, 403, 407, 429].contains(code)
            default: return false
            }
        }

        /// Counts the pages after `continuing` whose answers said more follow.
        private mutating func advance() {
            while answers.removeValue(forKey: range.lowerBound + continuing) == true { continuing += 1 }
        }
    }
}
