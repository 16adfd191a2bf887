import DemoServer
import Foundation
import RiffleKit

/// Figures of the real `riffle` binary: peak memory of `riffle dump` over 400 pages, and the time
/// from process start to the first frame painted from cache in a 120x40 tmux pane.
struct ProcessSection {
    let runs = 10

    func run() async throws {
        print("\nThe riffle binary (release)")
        guard let riffle = ChildProcess.riffle else {
            print("skipped: no riffle beside riffle-bench; build it with `swift build -c release` first")
            return
        }
        var table = Table("measurement", "result", "detail")
        try memory(riffle, into: &table)
        try coldDump(riffle, into: &table)
        try await firstFrame(riffle, into: &table)
        table.print()
    }

    /// Peak resident memory of `riffle dump` loading 400 pages, cold (network + disk writes) then warm.
    private func memory(_ riffle: String, into table: inout Table) throws {
        let server = try BenchFeed.server(pages: 400, latency: .milliseconds(1))
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-mem-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        // Through GNU time: a child spawned straight from this (large) process inherits its
        // high-water mark at exec, so its own ru_maxrss would report the benchmark's memory.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            table.add("peak RSS, riffle dump of 400 pages", "skipped", "no /usr/bin/time")
            return
        }
        let report = cache.path + ".rss"
        defer { try? FileManager.default.removeItem(atPath: report) }
        for pass in ["cold", "warm"] {
            let outcome = try ChildProcess.run(["/usr/bin/time", "-f", "%M", "-o", report,
                                                riffle, "dump", server.template, "--pages", "1-400", "--cache-dir", cache.path])
            let kilobytes = peakKilobytes(report)
            table.add("peak RSS, riffle dump of 400 pages (\(pass))", kilobytes.map { String(format: "%.1f MB", $0 / 1024) } ?? "?",
                      outcome.status == 0 ? "exit 0" : "exit \(outcome.status)")
        }
        // The warm dump's whole process: every item as JSON lines against titles alone (what the
        // lines add over reading the pages), best of five each.
        var wall: [String: Double] = [:]
        for (name, extra) in [("JSON lines", [String]()), ("--fields title", ["--fields", "title"])] {
            var best = Double.infinity
            for _ in 0..<5 {
                let start = ContinuousClock.now
                try ChildProcess.run([riffle, "dump", server.template, "--pages", "1-400", "--cache-dir", cache.path] + extra)
                best = min(best, micros(start.duration(to: .now)) / 1000)
            }
            wall[name] = best
            table.add("riffle dump of 400 cached pages, \(name)", String(format: "%.0f ms best of 5", best), "")
        }
        if let lines = wall["JSON lines"], let titles = wall["--fields title"] {
            table.add("JSON lines / --fields title, whole process", String(format: "%.2fx", lines / titles), "target ≤ 1.2x")
        }
        // One page of a million small objects (25 MB): refused as over the item limit, within a few times its size.
        var million = Data(#"{"items":["#.utf8)
        for i in 0..<1_000_000 { million.append(contentsOf: ((i == 0 ? "" : ",") + #"{"id":\#(i),"t":"x\#(i % 1000)"}"#).utf8) }
        million.append(contentsOf: "]}".utf8)
        let body = million
        let big = try HTTPServer { _ in .json(body) }
        defer { big.stop() }
        let outcome = try ChildProcess.run(["/usr/bin/time", "-f", "%M", "-o", report, riffle, "dump",
                                            "http://127.0.0.1:\(big.port)/million?page={page}", "--cache-dir", cache.path])
        let kilobytes = peakKilobytes(report)
        table.add("peak RSS, riffle dump of one \(body.count >> 20) MB page of a million objects",
                  kilobytes.map { String(format: "%.1f MB", $0 / 1024) } ?? "?", outcome.status == 1 ? "refused: over the item limit" : "exit \(outcome.status)")
    }

    /// `riffle dump` of 200 cold pages one at a time against a 5 ms server, as the server saw it:
    /// the wall time and, between one answer and the next request, what riffle adds to the network.
    private func coldDump(_ riffle: String, into table: inout Table) throws {
        let pages = 200
        let server = try BenchFeed.server(pages: pages, latency: .milliseconds(5))
        defer { server.stop() }
        var runs: [(seconds: Double, pacing: String?)] = []
        // The dump stages its items for search; the first search after it indexes them, the next does not.
        var searches: [(first: Double, again: Double)] = []
        for _ in 0..<5 {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-dump-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            server.server.resetLog()
            let start = ContinuousClock.now
            try ChildProcess.run([riffle, "dump", server.template, "--pages", "1-\(pages)", "--concurrency", "1", "--cache-dir", cache.path])
            runs.append((micros(start.duration(to: .now)) / 1e6, PageLoadSection.pacing(server.server.requests)))
            var times: [Double] = []
            for _ in 0..<2 {
                let searched = ContinuousClock.now
                try ChildProcess.run([riffle, "search", "parser", "--cache-dir", cache.path])
                times.append(micros(searched.duration(to: .now)) / 1000)
            }
            searches.append((times[0], times[1]))
        }
        runs.sort { $0.seconds < $1.seconds }
        let median = runs[runs.count / 2]
        table.add("riffle dump of \(pages) cold pages, 5 ms latency, concurrency 1", String(format: "%.3f s median of 5", median.seconds),
                  String(format: "%.3f–%.3f s", runs[0].seconds, runs[runs.count - 1].seconds))
        if let pacing = median.pacing { table.add("  requests as the server saw them", "", pacing) }
        let first = searches.map(\.first).sorted(), again = searches.map(\.again).sorted()
        table.add("  riffle search right after it (indexes the \(pages * BenchFeed.perPage) items it filed)",
                  String(format: "%.0f ms median of 5", first[first.count / 2]), "")
        table.add("  riffle search again", String(format: "%.0f ms median of 5", again[again.count / 2]), "")
    }

    /// Start → first titles on screen, `riffle URL` with page 1 cached and the server stopped.
    private func firstFrame(_ riffle: String, into table: inout Table) async throws {
        guard ChildProcess.onPath("tmux") else {
            table.add("first frame from cache", "skipped", "no tmux")
            return
        }
        let server = try BenchFeed.server(pages: 1, latency: .zero)
        let feed = try Feed(template: server.template)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-frame-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let page = try await PageLoader(feed: feed, cacheDirectory: cache, transport: CurlTransport()).load(1)
        server.stop()
        // The list shows titles from their start; the leading ASCII word and the CJK after it are one run.
        let needle = String(page.items[0].title.prefix(while: { $0 != "—" }).prefix(8))
        var titles: [Double] = [], firstOutput: [Double] = []
        for _ in 0..<runs {
            if let ms = try FirstFrameProbe(riffle: riffle, template: feed.template, cache: cache, needle: needle).measure() {
                titles.append(ms.titles)
                firstOutput.append(ms.firstOutput)
            }
        }
        guard !titles.isEmpty else {
            table.add("first frame from cache", "not detected", "titles never appeared")
            return
        }
        titles.sort()
        firstOutput.sort()
        table.add("start → first output (120x40 tmux)", String(format: "%.1f ms median", firstOutput[firstOutput.count / 2]),
                  String(format: "best %.1f ms", firstOutput[0]))
        table.add("start → titles from cache (120x40 tmux)", String(format: "%.1f ms median", titles[titles.count / 2]),
                  String(format: "best %.1f ms, worst %.1f ms, %d runs", titles[0], titles[titles.count - 1], titles.count))
    }

    /// GNU time's `%M` from its report: the last line (a failed command's report starts with
    /// "Command exited with non-zero status N").
    private func peakKilobytes(_ report: String) -> Double? {
        (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").last
            .flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
}
