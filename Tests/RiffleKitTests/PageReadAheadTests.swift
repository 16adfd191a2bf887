import DemoServer
import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

/// `PageLoader.readAhead`: page N+1's request leaves as soon as page N's answer says it follows,
/// before anyone asks for page N+1, and the later `load(N+1)` takes that request instead of sending
/// its own. Never past a page that says it is the last, never for a page the cache answers, never
/// without being asked to. Orderings as the server saw them, on 127.0.0.1; no timing.
@Suite("reading ahead: the next page's request leaves when the page before says it follows")
struct PageReadAheadTests {
    /// A cache folder for one test, removed after.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appending(path: "riffle-read-ahead-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Pages 1...`last` of two items each, `has_more` true before the last.
    static func server(last: Int) throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let items = (1...2).map { #"{"id": \#(page * 10 + $0), "title": "item \#(page).\#($0)"}"# }
            return .json(#"{"has_more": \#(page < last), "items": [\#(items.joined(separator: ", "))]}"#)
        }
    }

    static func loader(_ server: HTTPServer, _ folder: Folder) throws -> PageLoader {
        PageLoader(feed: try Feed(template: server.baseURL.absoluteString + "/feed?page={page}"), cacheDirectory: folder.url,
                   transport: CurlTransport())
    }

    /// The pages the server was asked for, in the order the requests arrived.
    static func asked(_ server: HTTPServer) -> [String] { server.requests.map { $0.query("page") ?? "?" } }

    @Test func theNextPagesRequestLeavesBeforeItIsAskedForAndItsLoadTakesIt() async throws {
        let server = try Self.server(last: 5)
        defer { server.stop() }
        let folder = Folder()
        let loader = try Self.loader(server, folder)
        loader.readAhead(1...5)

        let first = try await loader.load(1)
        #expect(first.items.count == 2 && !first.isLastPage)
        // Nobody asked for page 2 yet: its request left when page 1 said more follow.
        #expect(await eventually(timeout: .seconds(120)) { Self.asked(server).contains("2") })

        let second = try await loader.load(2)
        #expect(second.items.map(\.title) == ["item 2.1", "item 2.2"])
        #expect(second.source == .network, "fetched, as a load of its own would have")
        #expect(Self.asked(server).filter { $0 == "2" }.count == 1, "the load took the request sent ahead")
        // Stored as any fetched page: the next run reads it from disk.
        #expect(await (try Self.loader(server, folder)).cachedPage(2)?.items.count == 2)
    }

    @Test func nothingIsAskedPastAPageThatSaysItIsTheLast() async throws {
        let server = try Self.server(last: 1)
        defer { server.stop() }
        let folder = Folder()
        let loader = try Self.loader(server, folder)
        loader.readAhead(1...10)

        #expect(try await loader.load(1).isLastPage)
        // Through the loader's one place at a time: a request sent after page 1 would be in before this one.
        _ = try await loader.load(1, policy: .reloadIgnoringCache)
        #expect(Self.asked(server) == ["1", "1"])
    }

    @Test func aPageTheCacheAnswersIsNotAskedAhead() async throws {
        let server = try Self.server(last: 5)
        defer { server.stop() }
        let folder = Folder()
        _ = try await Self.loader(server, folder).load(2)
        let loader = try Self.loader(server, folder)
        loader.readAhead(1...5)

        _ = try await loader.load(1)
        _ = try await loader.load(1, policy: .reloadIgnoringCache)
        #expect(Self.asked(server) == ["2", "1", "1"])
        #expect(try await loader.load(2).source == .cache)
    }

    @Test func aLoaderNotToldToReadAheadAsksOnlyForWhatItIsAsked() async throws {
        let server = try Self.server(last: 5)
        defer { server.stop() }
        let folder = Folder()
        let loader = try Self.loader(server, folder)

        _ = try await loader.load(1)
        _ = try await loader.load(1, policy: .reloadIgnoringCache)
        #expect(Self.asked(server) == ["1", "1"])

        // Pages past the range it was told of are not asked for either.
        loader.readAhead(1...1)
        _ = try await loader.load(1, policy: .reloadIgnoringCache)
        _ = try await loader.load(1, policy: .reloadIgnoringCache)
        #expect(Self.asked(server) == ["1", "1", "1", "1"])
    }
}
