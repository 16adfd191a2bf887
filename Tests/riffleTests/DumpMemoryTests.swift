import DemoServer
import Foundation
import Testing

@Suite("riffle dump holds no more memory for a longer feed")
struct DumpMemoryTests {
    /// A feed that never ends: every page holds twenty items.
    static func endlessFeed() throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let items = (1...20).map { #"{"id": \#(page * 100 + $0), "title": "item \#(page)-\#($0)", "url": "https://example.com/\#(page)/\#($0)"}"# }
            return .json(#"{"items": [\#(items.joined(separator: ","))]}"#)
        }
    }

    /// The `peak_rss_kb` of the summary line `--timings` ends with, after a dump of `pages` pages.
    static func peakKilobytes(dumping pages: Int, from server: HTTPServer) async throws -> Int {
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try await Spawn.run([RiffleBinary.url.path, "dump", "http://127.0.0.1:\(server.port)/items?page={page}",
                                          "--cache-dir", cache.path, "--pages", "1-\(pages)", "--fields", "id", "--timings"],
                                         environment: ProcessInfo.processInfo.environment, timeout: .seconds(180))
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        #expect(result.stdout.split(separator: "\n").count == pages * 20)
        let summary = try #require(result.stderr.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any], "\(summary)")
        return try #require(object["peak_rss_kb"] as? Int, "\(summary)")
    }

    /// A dump that kept each page's finished task (as a plain task group does until asked for its
    /// results) grew by about 9 KB a page in a release build, 10 in a debug one: 1,900 pages more held
    /// 19 MB more or, for `--all` over a feed of 100,000 pages, most of a gigabyte.
    @Test func aTwentyTimesLongerDumpHoldsAboutTheSameMemory() async throws {
        let server = try Self.endlessFeed()
        defer { server.stop() }
        let short = try await Self.peakKilobytes(dumping: 100, from: server)
        let long = try await Self.peakKilobytes(dumping: 2_000, from: server)
        #expect(short > 1_000, "the peak is in KB")
        // What may grow: what the loader remembers of each page to tell a page repeating an earlier
        // one (a few hundred bytes a page), the allocator's own slack, and the code a slow moment
        // runs (a retry, a timer): 1.5 to 3 MB in a debug build, once 6.
        #expect(long - short < 8_192, "100 pages: \(short) KB, 2,000 pages: \(long) KB")
    }
}
