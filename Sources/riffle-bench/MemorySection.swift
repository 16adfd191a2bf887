import DemoServer
import Foundation

/// Where `riffle dump`'s peak memory goes (W4 of ../shared/bench: 200 pages cold, then warm, one
/// at a time): the release binary's `/proc/PID/smaps` is read whenever its resident total is the
/// highest seen, and the last such reading is told apart per library, the binary's own pages, the
/// heap and other anonymous memory. `swift run -c release riffle-bench memory`.
struct MemorySection {
    let pages = 200

    func run() throws {
        print("\nWhere riffle dump's memory goes (\(pages) pages, 5 ms latency, concurrency 1; KB at the sampled peak)")
        guard let riffle = ChildProcess.riffle else {
            print("skipped: no riffle beside riffle-bench; build it with `swift build -c release` first")
            return
        }
        let server = try BenchFeed.server(pages: pages, latency: .milliseconds(5))
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-smaps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        for pass in ["cold (libcurl loaded)", "warm (from the cache)"] {
            let (peak, highWater) = try sample([riffle, "dump", server.template, "--pages", "1-\(pages)", "--concurrency", "1",
                                                "--cache-dir", cache.path])
            guard let peak else {
                print("\(pass): no reading (the process ended first)")
                continue
            }
            print("\n\(pass): \(peak.resident) KB resident at the sampled peak (VmHWM \(highWater) KB), "
                  + "\(peak.anonymous) anonymous, \(peak.resident - peak.anonymous) file-backed")
            var table = Table("object", "resident", "anonymous", "code r-x", "read-only r--", "data rw-")
            let objects = peak.objects()
            for object in objects.prefix(16) {
                table.add(object.name, "\(object.resident)", "\(object.anonymous)", "\(object.byPermissions["r-xp"] ?? 0)",
                          "\(object.byPermissions["r--p"] ?? 0)", "\(object.byPermissions["rw-p"] ?? 0)")
            }
            let rest = objects.dropFirst(16)
            if !rest.isEmpty {
                table.add("\(rest.count) others", "\(rest.reduce(0) { $0 + $1.resident })", "\(rest.reduce(0) { $0 + $1.anonymous })", "", "", "")
            }
            table.print()
        }
    }

    /// Runs `argv` and reads its mappings whenever its resident total passes the highest so far:
    /// the mappings at the (sampled) peak, and the kernel's own high-water mark last read.
    private func sample(_ argv: [String]) throws -> (MemoryMap?, Int) {
        let pid = try ChildProcess.start(argv)
        var highest = 0, highWater = 0
        var peak: MemoryMap?
        while !ChildProcess.exited(pid) {
            if let status = MemoryMap.read("/proc/\(pid)/status") {
                let resident = Self.kilobytes("VmRSS", in: status), mark = Self.kilobytes("VmHWM", in: status)
                highWater = max(highWater, mark)
                if resident > highest, let map = MemoryMap(pid: pid) {
                    highest = resident
                    peak = map
                }
            }
            usleep(2_000)
        }
        return (peak, highWater)
    }

    /// `VmRSS:     1234 kB` in `/proc/PID/status` (or `Rss:` in `/proc/PID/smaps_rollup`).
    static func kilobytes(_ field: String, in status: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            // `/proc/PID/status` puts a tab after the colon, smaps_rollup spaces.
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        return 0
    }
}
