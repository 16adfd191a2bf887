import DemoServer
import Foundation
import Synchronization
import RiffleReading
import RiffleTestSupport
import Testing
@testable import riffle

/// `riffle dump` files what it prints in the reading log behind the output, holding at most a few
/// pages for it: a log slower than the network never makes the dump hold the whole feed in memory.
@Suite("riffle dump: filing in the reading log, a few pages at a time")
struct DumpFilingTests {
    @Test func addingPastTheLimitWaitsForTheOldestAndEveryPieceRunsInOrder() async {
        let work = OrderedWork(limit: 2)
        let unfinished = Atomic<Int>(0)
        let order = Mutex<[Int]>([])
        var most = 0
        // Each piece takes longer than adding it does: without the limit every piece would be
        // waiting at once.
        for number in 1...30 {
            unfinished.add(1, ordering: .sequentiallyConsistent)
            await work.add {
                for _ in 0..<50 { await Task.yield() }
                order.withLock { $0.append(number) }
                unfinished.subtract(1, ordering: .sequentiallyConsistent)
            }
            most = max(most, unfinished.load(ordering: .sequentiallyConsistent))
        }
        await work.finish()
        #expect(most <= 2)
        #expect(order.withLock { $0 } == Array(1...30))
        #expect(unfinished.load(ordering: .sequentiallyConsistent) == 0)
    }

    /// Twelve pages, three times the pages that may wait to be filed: the last page's items are
    /// found by `riffle search` as the first page's are.
    @Test func aDumpLongerThanTheLimitFilesEveryPage() async throws {
        let server = try HTTPServer { request in
            guard let page = Int(request.query("page") ?? ""), (1...12).contains(page) else { return .json("[]") }
            let word = page == 1 ? "firstmarker" : page == 12 ? "lastmarker" : "middlemarker"
            let items = (1...5).map { #"{"id": "p\#(page)-\#($0)", "title": "\#(word) item \#($0) of page \#(page)"}"# }
            return .json("[" + items.joined(separator: ", ") + "]")
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-filing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let url = server.baseURL.absoluteString + "/items?page={page}"
        let dump = try await RiffleBinary.run(["dump", url, "--pages", "1-12", "--format", "tsv", "--fields", "title", "--cache-dir", cache.path])
        #expect(dump.status == 0 && dump.stdout.split(separator: "\n").count == 60, "\(dump.stdout)\(dump.stderr)")
        for word in ["firstmarker", "lastmarker"] {
            let found = try await RiffleBinary.run(["search", word, "--format", "tsv", "--fields", "title", "--cache-dir", cache.path])
            #expect(found.status == 0 && found.stdout.split(separator: "\n").count == 5, "\(word): \(found.stdout)\(found.stderr)")
        }
    }

    /// A dump whose pages all come from the cache has nothing to file: it does not open the reading
    /// log, let alone make one. The first page it fetches from the server opens it and notes the feed.
    @Test func aDumpReadFromTheCacheLeavesTheReadingLogAloneAndOneFetchedPageOpensIt() async throws {
        let requests = Atomic<Int>(0)
        let server = try HTTPServer { request in
            guard let page = Int(request.query("page") ?? ""), (1...4).contains(page) else { return .json("[]") }
            requests.add(1, ordering: .sequentiallyConsistent)
            let items = (1...3).map { #"{"id": "p\#(page)-\#($0)", "title": "pagemarker\#(page) item \#($0)"}"# }
            return .json("[" + items.joined(separator: ", ") + "]", headers: [(name: "Cache-Control", value: "max-age=3600")])
        }
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-filing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let url = server.baseURL.absoluteString + "/items?page={page}"
        let log = cache.appendingPathComponent(ReadingLog.fileName).path
        // Given three pages dumped, so cached (and filed), and the reading log then removed
        let cold = try await RiffleBinary.run(["dump", url, "--pages", "1-3", "--cache-dir", cache.path])
        #expect(cold.status == 0 && requests.load(ordering: .sequentiallyConsistent) == 3, "\(cold.stderr)")
        #expect(FileManager.default.fileExists(atPath: log))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: log + suffix) }
        // When the same pages are dumped again, every one from the cache
        let warm = try await RiffleBinary.run(["dump", url, "--pages", "1-3", "--cache-dir", cache.path])
        #expect(warm.status == 0 && warm.stdout.split(separator: "\n").count == 9, "\(warm.stdout)\(warm.stderr)")
        #expect(requests.load(ordering: .sequentiallyConsistent) == 3)
        // Then there is still no reading log
        #expect(!FileManager.default.fileExists(atPath: log))
        // And a dump that fetches one page more files that page and notes the feed opened
        let more = try await RiffleBinary.run(["dump", url, "--pages", "1-4", "--cache-dir", cache.path])
        #expect(more.status == 0 && requests.load(ordering: .sequentiallyConsistent) == 4, "\(more.stderr)")
        let found = try await RiffleBinary.run(["search", "pagemarker4", "--format", "tsv", "--fields", "title", "--cache-dir", cache.path])
        #expect(found.stdout.split(separator: "\n").count == 3, "\(found.stdout)\(found.stderr)")
        #expect(try await ReadingLog(cacheDirectory: cache).openedFeeds().map(\.feed.name) == [url])
    }

    /// `riffle dump ... | head`: the reader goes away while the dump has pages loaded and stored
    /// ahead of its output. Every page the cache now holds was fetched, and a later dump reads it back
    /// from the cache without filing it again: so each must be in the reading log already.
    @Test func aDumpWhoseReaderGoesAwayFilesEveryPageItStored() async throws {
        // Pages of 50 items of 4 KB, printed whole (JSON lines): page 1's 200 KB are more than a pipe
        // holds (64 KB), so the dump cannot end before the reader goes away
        let server = try HTTPServer { request in
            guard let page = Int(request.query("page") ?? ""), (1...12).contains(page) else { return .json("[]") }
            let body = String(repeating: "x", count: 4_000)
            let items = (1...50).map { #"{"id": "p\#(page)-\#($0)", "title": "marker item \#($0) of page \#(page)", "body": "\#(body)"}"# }
            return .json("[" + items.joined(separator: ", ") + "]", headers: [("Cache-Control", "max-age=3600")])
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let (fifo, reader) = try RiffleBinary.outputPipe()
        defer { unlink(fifo) }
        let url = server.baseURL.absoluteString + "/items?page={page}"
        let arguments = ["dump", url, "--cache-dir", cache.path, "--pages", "1-12"]
        let run = Task.detached { try await RiffleBinary.run(arguments, stdout: fifo) }

        // Given the output stuck on page 1 while pages after it are fetched (and stored)
        let deadline = ContinuousClock.now + patience
        while server.requestCount < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        // When the reader goes away
        close(reader)
        let result = try await run.value
        // Then riffle ends as a program writing to a closed pipe does, silently
        #expect(result.status == 128 + SIGPIPE, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // And every item the cache holds is found by search (before: none was, since the dump was
        // killed before it filed any, and the cache's copies are never filed again)
        let stored = try await RiffleBinary.run(arguments + ["--format", "tsv", "--fields", "id", "--offline"])
        let storedIDs = Set(stored.stdout.split(separator: "\n").map(String.init))
        #expect(storedIDs.count >= 50, "\(stored.stdout) \(stored.stderr)")
        let found = try await RiffleBinary.run(["search", "marker", "--limit", "10000", "--format", "tsv", "--fields", "id", "--cache-dir", cache.path])
        let foundIDs = Set(found.stdout.split(separator: "\n").map(String.init))
        #expect(storedIDs.subtracting(foundIDs).isEmpty, "stored, not searchable: \(storedIDs.subtracting(foundIDs).sorted().prefix(5)) of \(storedIDs.count)")
    }
}
