import Foundation
import RiffleKit

// Release benchmarks for Riffle. Run with `swift run -c release riffle-bench`.
// Each section is one function that prints its own table, so sections can be added independently.

/// The ~84 KB, 50-item page that the product requirement (≤ 0.1 ms parse + extract) is about.
struct CachedPageSection {
    let iterations = 2_000
    let data: Data
    let file: URL

    init() throws {
        data = FeedFixture.page()
        file = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-page-\(getpid()).json")
        try data.write(to: file)
    }

    func run() throws {
        print("Cached page: \(data.count) bytes, 50 items, \(iterations) iterations (µs)")
        var table = Table("operation", "median", "p99", "best", "MB/s")
        func row(_ name: String, _ t: Timing) {
            table.add(name, f(t.median), f(t.p99), f(t.best), String(format: "%.0f", t.throughput(bytes: data.count)))
        }
        let items = try ItemExtractor.items(in: data)
        precondition(items.count == 50, "fixture should yield 50 items, got \(items.count)")

        row("JSONParser.parse (tape, then every value)", try measure(iterations: iterations) { blackHole(try JSONParser.parse(data)) })
        row("JSONDocument (tape pass)", try measure(iterations: iterations) { blackHole(try JSONDocument(data)) })
        row("tape: ItemExtractor.items(in: Data)", try measure(iterations: iterations) {
            blackHole(try ItemExtractor.items(in: data))
        })
        row("tape: read file + extract", try measure(iterations: iterations) {
            blackHole(try ItemExtractor.items(in: Data(contentsOf: file)))
        })
        let stored = try ItemExtractor.items(inStoredPage: data), strict = try ItemExtractor.items(in: data)
        precondition(stored == strict, "stored-page items should match the strict ones")
        row("JSONDocument(validation: .structure)", try measure(iterations: iterations) {
            blackHole(try JSONDocument(data, validation: .structure))
        })
        row("stored page: ItemExtractor.items(inStoredPage:)", try measure(iterations: iterations) {
            blackHole(try ItemExtractor.items(inStoredPage: data))
        })
        row("stored page: read file + extract", try measure(iterations: iterations) {
            blackHole(try ItemExtractor.items(inStoredPage: Data(contentsOf: file)))
        })
        // What `riffle dump` prints for a page: every item as a JSON line, copied from the page's bytes.
        let storedItems = try ItemExtractor.items(inStoredPage: data)
        func lines() -> [UInt8] {
            var out = JSONLineWriter()
            for item in storedItems {
                out.write(item.fieldsNode!)
                out.append("\n")
            }
            return out.bytes
        }
        let written = lines().count
        let jsonl = measure(iterations: iterations) { blackHole(lines()) }
        table.add("JSON lines: every item written (JSONLineWriter), MB/s of output", f(jsonl.median), f(jsonl.p99), f(jsonl.best),
                  String(format: "%.0f", jsonl.throughput(bytes: written)))
        row("JSONSerialization.jsonObject", try measure(iterations: iterations) {
            blackHole(try JSONSerialization.jsonObject(with: data))
        })
        row("JSONDecoder (Codable page)", try measure(iterations: iterations) {
            blackHole(try JSONDecoder().decode(CodablePage.self, from: data))
        })
        table.print()
        try? FileManager.default.removeItem(at: file)
    }

    private func f(_ micros: Double) -> String { String(format: "%.1f", micros) }
}

/// The same page through Codable, all fields typed, as an app would decode it with Foundation.
struct CodablePage: Decodable {
    struct User: Decodable { var id: Int; var login: String; var karma: Int; var about: String; var verified: Bool }
    struct Hit: Decodable {
        var id: Int; var objectID: String; var title: String; var author: String; var score: Int
        var num_comments: Int; var url: String; var created_at: String; var created_at_i: Int
        var body: String; var tags: [String]; var ratio: Double; var story_text: String?; var dead: Bool; var user: User
    }
    var page: Int; var per_page: Int; var total: Int; var hits: [Hit]
}

// `riffle-bench` runs every section; `riffle-bench decode load hit process cache draw screens` picks some;
// `riffle-bench profile` loops over parse + extract only, for `perf record` (`profile-stored`: the
// stored-page path; `profile-parse`: `JSONParser.parse`, a whole `JSONValue`; `profile-transport`: loopback requests with no latency; `profile-miss`: cache
// lookups of pages that are not stored); `riffle-bench serve`: the process section's feed, to trace
// `riffle dump` by hand; `riffle-bench cold`: the serial cold load alone, for tracing.
let wanted = Set(CommandLine.arguments.dropFirst())
func wants(_ section: String) -> Bool { wanted.isEmpty || wanted.contains(section) }
if wanted.contains("profile") {
    let data = FeedFixture.page()
    for _ in 0..<20_000 { blackHole(try ItemExtractor.items(in: data)) }
} else if wanted.contains("profile-parse") {
    let data = FeedFixture.page()
    for _ in 0..<5_000 { blackHole(try JSONParser.parse(data)) }
} else if wanted.contains("profile-stored") {
    let data = FeedFixture.page()
    for _ in 0..<20_000 { blackHole(try ItemExtractor.items(inStoredPage: data)) }
} else if wanted.contains("profile-transport") {
    let server = try BenchFeed.server(pages: 20, latency: .zero)
    let transport = CurlTransport()
    for i in 0..<20_000 {
        blackHole(try await transport.send(HTTPRequest(url: try Feed(template: server.template).url(forPage: i % 20 + 1))))
    }
    server.stop()
} else if wanted.contains("profile-miss") {
    let feed = try Feed(template: "http://127.0.0.1:9/items?page={page}", name: "miss")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-miss-\(getpid())")
    let loader = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
    let start = ContinuousClock.now
    for i in 0..<20_000 { _ = try? await loader.load(i % 200 + 1, policy: .returnCacheDontLoad) }
    print(String(format: "%.1f µs a miss", micros(start.duration(to: .now)) / 20_000))
    try? FileManager.default.removeItem(at: directory)
} else if wanted.contains("serve") {
    // The process section's feed (400 pages, 1 ms latency) until stdin closes, for tracing `riffle dump` by hand.
    let server = try BenchFeed.server(pages: 400, latency: .milliseconds(1))
    print(server.template)
    fflush(nil)
    while readLine() != nil {}
    server.stop()
} else if wanted.contains("cold") {
    try await PageLoadSection().coldOnly()
} else {
    if wants("decode") { try CachedPageSection().run() }
    if wants("load") { try await PageLoadSection().run() }
    if wants("hit") { try await HitSection().run() }
    if wants("process") { try await ProcessSection().run() }
    if wants("memory") { try MemorySection().run() }
    if wants("cache") { runCacheBenchmarks() }
    if wants("draw") { DrawSection().run() }
    if wants("screens") { ScreenSection().run() }
}
