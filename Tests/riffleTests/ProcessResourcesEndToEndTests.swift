import DemoServer
import Foundation
import Testing

/// riffle is the composition root: whatever feeds are opened, the process holds one response cache
/// (one connection to its index) and one libcurl transport (one engine thread). Read from /proc.
@Suite("riffle in tmux: one cache and one transport per process", .serialized)
struct ProcessResourcesEndToEndTests {
    @Test func threeFeedsOpenedFromTheListShareOneIndexConnectionAndOneLibcurlThread() async throws {
        let home = try DailyEndToEndTests.Home()
        let server = try DailyEndToEndTests.server(["a": [["alpha one"]], "b": [["bravo one"]], "c": [["charlie one"]]])
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        try home.write("feeds.json", #"""
        {"feeds": {
          "first": {"description": "the first feed", "url": "\#(base)/a/{page}"},
          "second": {"description": "the second feed", "url": "\#(base)/b/{page}"},
          "third": {"description": "the third feed", "url": "\#(base)/c/{page}"}
        }}
        """#)

        // Given riffle on the feed list
        let session = try home.session([])
        #expect(await session.waitFor { session.screen().contains("the third feed") }, "\(session.screen())")
        // When the three feeds are opened from it in turn (each fetched from the server, stored, left with q)
        var opened: Set<String> = []
        for turn in 0..<3 {
            if turn > 0 { try session.send("j") }
            try session.send("Enter")
            let titles = ["alpha one", "bravo one", "charlie one"]
            #expect(await session.waitFor { titles.contains { !opened.contains($0) && session.screen().contains($0) } }, "\(session.screen())")
            opened.formUnion(titles.filter { session.screen().contains($0) })
            try session.send("q")
            #expect(await session.waitFor { session.screen().contains("the third feed") }, "\(session.screen())")
        }
        #expect(opened.count == 3, "\(opened)")
        #expect(server.requests.count >= 3)

        // Then the process holds one descriptor of the cache's index and one libcurl engine thread
        let pid = try #require(try session.childProcess(running: RiffleBinary.url.path))
        let index = home.cache.appending(path: "responses/index.sqlite").resolvingSymlinksInPath().path
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == index
        }
        #expect(descriptors.count == 1, "descriptors of \(index): \(descriptors)")
        let engines = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").filter { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "riffle-curl"
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) } ?? []
        #expect(engines.count == 1, "libcurl engine threads: \(engines.count) of \(names)")
        try await DailyEndToEndTests.quit(session)
    }
}
