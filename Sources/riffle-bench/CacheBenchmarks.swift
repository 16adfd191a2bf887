import DemoServer
import Foundation
import RiffleKit

/// Response cache figures: memory-tier operations per second, disk-tier hit latency for a 100 KB
/// entry, and 200 cached pages through PageLoader. Prints one table.
func runCacheBenchmarks() {
    let semaphore = DispatchSemaphore(value: 0)
    // The benchmark is async (actors); main.swift is synchronous, so wait for it here.
    Task.detached {
        do { try await CacheBenchmarks().run() } catch { print("cache benchmarks failed: \(error)") }
        semaphore.signal()
    }
    semaphore.wait()
}

struct CacheBenchmarks {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-cache-\(getpid())")

    func run() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        print("\nResponse cache")
        var table = Table("operation", "figure")
        let (gets, sets) = memoryTier()
        table.add("memory tier get (MemoryCache, 10k keys)", String(format: "%.1f M ops/s", gets / 1e6))
        table.add("memory tier set (MemoryCache, evicting)", String(format: "%.1f M ops/s", sets / 1e6))
        let memoryHit = try await hitLatency(memory: true)
        table.add("ResponseCache memory hit, 100 KB (key + lookup)", String(format: "median %.1f µs, p99 %.1f µs", memoryHit.median, memoryHit.p99))
        let diskHit = try await hitLatency(memory: false)
        table.add("ResponseCache disk hit, 100 KB (index + file)", String(format: "median %.1f µs, p99 %.1f µs", diskHit.median, diskHit.p99))
        let pages = try await pagesThroughLoader(count: 200)
        table.add("200 cached pages through PageLoader (\(FeedFixture.page().count / 1024) KB each)",
                  String(format: "%.1f ms (%.0f µs/page)", pages * 1e3, pages * 1e6 / 200))
        table.print()
    }

    private func memoryTier() -> (gets: Double, sets: Double) {
        let keys = (0..<10_000).map { "key-\($0)" }
        var memory = MemoryCache<String, Int>(countLimit: 5_000, costLimit: .max)
        let operations = 2_000_000
        let clock = ContinuousClock()
        let setTime = clock.measure {
            for i in 0..<operations { memory.set(i, for: keys[i % keys.count], cost: 1) }
        }
        var hits = 0
        let getTime = clock.measure {
            for i in 0..<operations where memory.value(for: keys[(i * 7) % keys.count]) != nil { hits += 1 }
        }
        blackHole(hits)
        return (Double(operations) / getTime.seconds, Double(operations) / setTime.seconds)
    }

    private func hitLatency(memory: Bool) async throws -> Timing {
        var configuration = ResponseCache.Configuration()
        if !memory { configuration.memoryCountLimit = 0 }
        let cache = ResponseCache(directory: root.appendingPathComponent(memory ? "memory" : "disk"), configuration: configuration)
        let url = URL(string: "http://127.0.0.1:1/bench/100k")!
        let body = Data(("{\"pad\":\"" + String(repeating: "x", count: 100 * 1024 - 10) + "\"}").utf8)
        let request = HTTPRequest(url: url)
        _ = try await cache.response(for: request, policy: .reloadIgnoringCache, maxAge: 3_600, validate: { _ in }) { _ in
            HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body, url: url)
        }
        var samples: [Double] = []
        let clock = ContinuousClock()
        for run in 0..<2_100 {
            let start = clock.now
            let value = await cache.cachedValue(for: request, maxAge: 3_600)
            let elapsed = clock.now - start
            precondition(value?.response.body.count == body.count, "cache miss in the benchmark")
            if run >= 100 { samples.append(elapsed.seconds * 1e6) }
        }
        return Timing(samples: samples.sorted())
    }

    /// Seconds to load `count` pages that are all cached, with a fresh loader (so no memory is warm).
    private func pagesThroughLoader(count: Int) async throws -> Double {
        let page = FeedFixture.page()
        let server = try HTTPServer { _ in .json(page, headers: [("ETag", "\"bench\""), ("Cache-Control", "max-age=3600")]) }
        defer { server.stop() }
        let feed = try Feed(template: "http://127.0.0.1:\(server.port)/page/{page}")
        let directory = root.appendingPathComponent("pages")
        var configuration = PageLoader.Configuration()
        configuration.maxConcurrentFetches = 4
        let warm = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport(), configuration: configuration)
        for number in 1...count { _ = try await warm.load(number) }
        let loader = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
        let clock = ContinuousClock()
        let start = clock.now
        for number in 1...count {
            let loaded = try await loader.load(number)
            precondition(loaded.source == .cache, "page \(number) was not cached")
        }
        return (clock.now - start).seconds
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
