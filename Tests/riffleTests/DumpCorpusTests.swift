import DemoServer
import Foundation
import RiffleKit
import Testing

/// `riffle dump --fields title,link` prints what the browser lists and what `y` copies, for every saved
/// response of a real API: the 27 of RiffleKitTests' fixtures and both halves of the corpus. Each is served on 127.0.0.1 and read
/// twice: by the binary, and by `PageLoader` as the browser reads it.
@Suite("dump says what the browser shows")
struct DumpCorpusTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../RiffleKitTests/Fixtures").standardizedFileURL

    /// Every response to read: the fixtures' JSON files and each corpus half's files, by path from `fixtures`.
    static func responses() throws -> [String] {
        let top = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".json") }.sorted()
        let halves = ["tune", "heldout"]
        var corpus: [String] = []
        for half in halves {
            let data = try Data(contentsOf: fixtures.appending(path: "corpus/\(half)/expectations.json"))
            let entries = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            corpus += entries.compactMap { $0["file"] as? String }.map { "corpus/\(half)/\($0)" }
        }
        return top + corpus
    }

    @Test func dumpPrintsTheBrowsersTitlesAndLinks() async throws {
        let files = try Self.responses()
        #expect(files.count >= 27 + 43)
        let server = try HTTPServer { request in
            guard let data = try? Data(contentsOf: Self.fixtures.appending(path: String(request.path.dropFirst()))) else {
                return .text("not found", status: 404)
            }
            return .json(data)
        }
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        for file in files {
            let template = server.baseURL.absoluteString + "/" + file + "?page={page}"
            let browser = try await Self.browserItems(template, cache: cache.appending(path: "browser"))
            let dump = try await RiffleBinary.run(["dump", template, "--fields", "title,link", "--cache-dir", cache.appending(path: "dump").path])
            switch browser {
            case .success(let items):
                #expect(dump.status == 0, "\(file): \(dump.stderr)")
                let lines = dump.stdout.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                #expect(lines.map { $0["title"] as? String } == items.map(\.title), "\(file): titles")
                // The link `y` copies: the item's URL as one inert word (`InertLink`, checked on its own
                // spelling in TerminalSafetyTests).
                #expect(lines.map { $0["link"] as? String } == items.map { $0.url.map(InertLink.encode) }, "\(file): links")
            case .failure(let error):
                // What the browser says in its status line, dump says on standard error.
                #expect(dump.status == 1 && dump.stderr.contains(error.description), "\(file): \(dump.stderr) / \(error)")
            }
        }
    }

    /// Page 1 of the feed as the browser loads it: the items its list draws, or the error it shows.
    static func browserItems(_ template: String, cache: URL) async throws -> Result<[Item], FeedError> {
        let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: cache)
        do throws(FeedError) { return .success(try await loader.load(1, policy: .reloadIgnoringCache).items) } catch { return .failure(error) }
    }
}
