import DemoServer
import Foundation
import RiffleKit

/// Pages through `PageLoader` against the demo server: cold loads at two concurrencies, warm loads
/// from disk, and a refetch of stale pages.
struct PageLoadSection {
    let pages = 200
    let latency = Duration.milliseconds(5)
    /// Cold loads per concurrency; the median is reported.
    static let coldRuns = 5

    func run() async throws {
        let server = try BenchFeed.server(pages: pages, latency: latency)
        defer { server.stop() }
        let feed = try Feed(template: server.template, name: "bench")
        let pageBytes = server.feed.pageJSON(1).count
        print("\nPage loads: \(pages) pages of \(BenchFeed.perPage) items (\(pageBytes / 1000) KB), server latency 5 ms")
        var table = Table("operation", "result", "detail")

        // Each cold load runs five times, from an empty folder each time, and the median run is shown:
        // on this VM a sleeping thread (the server's, the client's) now and then wakes tens of
        // milliseconds late, which alone moves one 1-second run by several percent.
        var warmDirectory: URL?
        var pacing: [String] = []
        for concurrency in [1, 4] {
            var runs: [(seconds: Double, directory: URL, pacing: [String])] = []
            for _ in 0..<Self.coldRuns {
                let directory = try temporaryDirectory()
                server.server.resetLog()
                let (elapsed, start) = try await timeAll(makeLoader(feed, directory, concurrency: concurrency), policy: .returnCacheElseLoad)
                let requests = server.server.requests
                runs.append((elapsed, directory, [Self.firstRequest(requests, after: start), Self.pacing(requests)].compactMap { $0 }))
            }
            runs.sort { $0.seconds < $1.seconds }
            let median = runs[runs.count / 2]
            let ideal = Double(pages) * 0.005 / Double(concurrency)
            table.add("cold load, concurrency \(concurrency)", String(format: "%.0f pages/s", Double(pages) / median.seconds),
                      String(format: "%.3f s (ideal %.3f s, +%.1f%%), median of %d: %.3f–%.3f s", median.seconds, ideal,
                             (median.seconds / ideal - 1) * 100, runs.count, runs[0].seconds, runs[runs.count - 1].seconds))
            if concurrency == 1 {
                pacing = median.pacing
                warmDirectory = median.directory
            }
            for run in runs where run.directory != warmDirectory { try? FileManager.default.removeItem(at: run.directory) }
        }
        for line in pacing { table.add("  requests as the server saw them (concurrency 1)", "", line) }
        // The same cold load with no server latency: what each page costs beyond the 5 ms wait.
        server.latency = .zero
        let bare = try temporaryDirectory()
        let overhead = try await timeAll(makeLoader(feed, bare, concurrency: 1), policy: .returnCacheElseLoad).seconds
        try? FileManager.default.removeItem(at: bare)
        server.latency = latency
        table.add("cold load, concurrency 1, no latency", String(format: "%.0f pages/s", Double(pages) / overhead),
                  String(format: "%.2f ms a page: request, parse, two atomic writes", overhead * 1000 / Double(pages)))
        // The transfers alone, one after another, through the transport and no cache: what the HTTP
        // client costs beyond the server's wait.
        for (label, wait) in [("5 ms latency", latency), ("no latency", Duration.zero)] {
            server.latency = wait
            let transport = CurlTransport()
            let start = ContinuousClock.now
            for number in 1...pages {
                let response = try await transport.send(HTTPRequest(url: feed.url(forPage: number)))
                precondition(response.status == 200)
            }
            let seconds = micros(start.duration(to: .now)) / 1e6
            table.add("transfers alone (libcurl), \(label)", String(format: "%.0f pages/s", Double(pages) / seconds),
                      String(format: "%.2f ms a page", seconds * 1000 / Double(pages)))
        }
        // The floor: the same transfers from one thread with a blocking socket.
        for (label, wait) in [("5 ms latency", latency), ("no latency", Duration.zero)] {
            server.latency = wait
            if let ms = BlockingFloor.run(port: UInt16(server.server.port), pages: pages) {
                table.add("floor: blocking socket, one thread, \(label)", String(format: "%.0f pages/s", 1000 / ms),
                          String(format: "%.2f ms a page", ms))
            }
        }
        server.latency = latency
        // The machine's own floor: a thread asleep for 5 ms wakes this late. A transfer at 5 ms
        // latency needs several such wake-ups (server and client), whatever the client does.
        var overshoot = 0.0
        for _ in 0..<pages {
            let start = ContinuousClock.now
            var request = timespec(tv_sec: 0, tv_nsec: 5_000_000), remaining = timespec()
            _ = nanosleep(&request, &remaining)
            overshoot += micros(start.duration(to: .now)) - 5_000
        }
        table.add("thread wake-up: nanosleep(5 ms)", String(format: "+%.0f µs", overshoot / Double(pages)),
                  "mean lateness of one sleeping thread on this machine")
        guard let warmDirectory else { return }
        defer { try? FileManager.default.removeItem(at: warmDirectory) }

        // Warm: a fresh loader (nothing in memory) reading every page back from disk, five times over.
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<5 {
            let loader = makeLoader(feed, warmDirectory, concurrency: 1)
            for number in 1...pages {
                let start = clock.now
                let page = try await loader.load(number)
                samples.append(micros(start.duration(to: clock.now)))
                precondition(page.source == .cache && page.items.count == BenchFeed.perPage)
            }
        }
        let warm = Timing(samples: samples.sorted())
        table.add("warm load from disk (per page)", String(format: "%.0f µs median", warm.median),
                  String(format: "p99 %.0f µs, %d loads", warm.p99, samples.count))

        // The same pages an hour later: past the server's max-age (60 s), so each is revalidated with
        // If-None-Match and the server answers 304 with no body.
        server.server.resetLog()
        let later = PageLoader(feed: feed, cacheDirectory: warmDirectory, transport: CurlTransport(),
                               configuration: PageLoader.Configuration(), clock: { Date().addingTimeInterval(3600) })
        let start = clock.now
        for number in 1...pages {
            let page = try await later.load(number)
            // A 304 carries no body: every page kept its bytes on disk.
            precondition(page.source == .revalidated, "page \(number) came from \(page.source)")
        }
        let elapsed = micros(start.duration(to: clock.now)) / 1e6
        let conditional = server.server.requests.filter { request in request.headers.contains { $0.name == "if-none-match" } }.count
        table.add("revalidate \(pages) stale pages", "\(conditional) × 304",
                  String(format: "no bodies transferred (all pages .revalidated), %.3f s", elapsed))
        table.print()
    }

    /// The concurrency-1 cold load alone, with its pacing (`riffle-bench cold`, for tracing).
    func coldOnly() async throws {
        let server = try BenchFeed.server(pages: pages, latency: latency)
        defer { server.stop() }
        let feed = try Feed(template: server.template, name: "bench")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (elapsed, start) = try await timeAll(makeLoader(feed, directory, concurrency: 1), policy: .returnCacheElseLoad)
        print(String(format: "cold load, concurrency 1: %.3f s (+%.1f%%)", elapsed, (elapsed - 1) * 100))
        for line in [Self.firstRequest(server.server.requests, after: start), Self.pacing(server.server.requests)] {
            if let line { print(line) }
        }
    }

    /// How long after the pages were asked for the first request reached the server.
    static func firstRequest(_ requests: [HTTPServer.Request], after start: ContinuousClock.Instant) -> String? {
        guard let first = requests.first else { return nil }
        return String(format: "first request %.1f ms after the pages were asked for", micros(start.duration(to: first.receivedAt)) / 1000)
    }

    /// The mean gap between consecutive requests' arrivals, and what it holds beyond the latency: the
    /// time from the server's answer to the client's next request.
    static func pacing(_ requests: [HTTPServer.Request]) -> String? {
        guard requests.count > 1 else { return nil }
        let span = micros(requests[0].receivedAt.duration(to: requests[requests.count - 1].receivedAt))
        let gap = span / Double(requests.count - 1)
        return String(format: "one every %.2f ms: 5 ms latency + %.0f µs answer → next request", gap / 1000, gap - 5000)
    }

    private func makeLoader(_ feed: Feed, _ directory: URL, concurrency: Int) -> PageLoader {
        var configuration = PageLoader.Configuration()
        configuration.maxConcurrentFetches = concurrency
        return PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport(), configuration: configuration)
    }

    /// Seconds to load every page, all asked for at once (the loader keeps them to its concurrency),
    /// and when they were asked for.
    private func timeAll(_ loader: PageLoader, policy: CachePolicy) async throws -> (seconds: Double, start: ContinuousClock.Instant) {
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 1...pages {
                group.addTask { try await loader.load(number, policy: policy).items.count }
            }
            for try await count in group { precondition(count == BenchFeed.perPage) }
        }
        return (micros(start.duration(to: clock.now)) / 1e6, start)
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
