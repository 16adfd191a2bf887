import DemoServer
import Foundation
import Testing
@testable import RiffleKit

/// A feed's query reaches the server as the user wrote it on every page, whatever Riffle adds to it
/// (a cursor, the feed's `query`): a `+` in a template is a space to the server and stays one, a
/// `%2B` stays a plus, and what Riffle adds is encoded so that the server reads it back whole.
@Suite("a feed's query reaches every page as written")
struct QueryEncodingTests {
    /// A cache folder for one test, removed after.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "riffle-query-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A search whose items say what the server read: `q`, `tag`, the cursor `after`, `lang`.
    /// Page 1 (no cursor) hands out a cursor full of what a query treats specially; page 2 ends.
    static let cursor = "a+b&c=d#e f/é?"

    static func search() throws -> HTTPServer {
        try HTTPServer { request in
            let read = ["q", "tag", "after", "lang"].map { request.query($0) ?? "-" }.joined(separator: "|")
            let next = request.query("after") == nil ? "\"" + cursor + "\"" : "null"
            return .json(#"{"data": {"after": \#(next), "children": [{"id": \#(JSONValue.string(request.target).jsonText), "title": \#(JSONValue.string(read).jsonText)}]}}"#)
        }
    }

    @Test func aCursorPageKeepsTheTemplatesQueryAsWritten() async throws {
        let server = try Self.search()
        defer { server.stop() }
        let folder = Folder()
        let feed = try Feed(template: server.url("/search").absoluteString + "?q=swift+ui&tag=c%2B%2B",
                            pagination: Pagination(.cursor(path: "data.after", parameter: "after")))
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())

        #expect(try await loader.load(1).items.map(\.title) == ["swift ui|c++|-|-"])
        let second = try await loader.load(2)
        #expect(second.items.map(\.title) == ["swift ui|c++|\(Self.cursor)|-"], "sent: \(server.requests.map(\.target))")
    }

    @Test func theFeedsQueryLeavesTheTemplatesQueryAsWritten() async throws {
        let server = try Self.search()
        defer { server.stop() }
        let folder = Folder()
        let feed = try Feed(template: server.url("/search").absoluteString + "?q=swift+ui&tag=c%2B%2B&page={page}",
                            pagination: Pagination(.pageNumber(firstPage: 1)), query: ["lang": "c++ & go"])
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())

        let page = try await loader.load(1)
        #expect(page.items.map(\.title) == ["swift ui|c++|-|c++ & go"], "sent: \(server.requests.map(\.target))")
    }
}

private extension JSONValue {
    /// This value as JSON text.
    var jsonText: String {
        var text = ""
        JSONWriter.write(self, into: &text)
        return text
    }
}
