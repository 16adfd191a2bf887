import DemoServer
import Foundation
import RiffleKit
import Testing

/// A demo feed on 127.0.0.1 and a fresh cache folder for one `riffle dump` test.
struct DumpFixture {
    let server: DemoFeedServer
    let cache: URL

    init(failPage: Int? = nil) throws {
        server = try DemoFeedServer(latency: .zero, failPage: failPage, timeline: .stored, maxAge: 3_600)
        cache = try RiffleBinary.temporaryDirectory()
    }

    var template: String { server.template }

    /// Runs `riffle dump TEMPLATE` with this cache, then `extra` arguments.
    func dump(_ extra: [String]) async throws -> Spawn.Result {
        try await RiffleBinary.run(["dump", template, "--cache-dir", cache.path] + extra)
    }

    /// The ids the feed serves on `pages`, in order.
    func ids(pages: ClosedRange<Int>) -> [String] {
        let perPage = server.feed.perPage
        let range = (pages.lowerBound - 1) * perPage..<min(server.feed.items.count, pages.upperBound * perPage)
        return server.feed.items[range].map { String($0.id) }
    }

    /// The folder where PageLoader keeps this feed's pages.
    var feedFolder: URL {
        get throws { PageStore(cacheDirectory: cache, feedID: try Feed(template: template).id).directory }
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: cache)
    }

    /// The JSON objects of each line of `text`.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
    }

    /// An object's value as text (ids are numbers in the feed, strings after `--fields`).
    static func text(_ value: Any?) -> String? {
        switch value {
        case let s as String: s
        case let n as NSNumber: n.stringValue
        default: nil
        }
    }
}
