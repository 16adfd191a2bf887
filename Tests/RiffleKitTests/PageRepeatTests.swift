import DemoServer
import Foundation
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleKit

/// A server that ignores how the next page is asked for answers every page with the first: the
/// page that repeats the one before it ends the feed, says why, and costs no request after it.
@Suite("a page that repeats the page before ends the feed")
struct PageRepeatTests {
    static let items = #"[{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]"#

    /// A cache folder for one test, removed after.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "riffle-repeat-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func aServerIgnoringPageEndsTheFeedAtPageTwo() async throws {
        let server = try HTTPServer { _ in .json(#"{"hits": \#(Self.items)}"#) }
        defer { server.stop() }
        let folder = Folder()
        let feed = try Feed(template: server.baseURL.absoluteString + "/static.json?page={page}")
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())

        let first = try await loader.load(1)
        #expect(first.items.map(\.title) == ["one", "two"] && !first.isLastPage && first.endReason == nil)
        let second = try await loader.load(2)
        #expect(second.items.isEmpty && second.isLastPage)
        #expect(second.endReason == "the server returned page 1 again: it ignores {page}?")
        #expect(try await loader.load(3).isLastPage)
        #expect(server.requests.count == 2, "nothing is asked past the repeat")

        // Another run reads the same end from the disk.
        let again = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())
        #expect(await again.cachedPage(2)?.endReason == second.endReason)
        #expect(again.peekCachedPage(2)?.isLastPage == true)
        #expect(try await again.load(3).items.isEmpty)
        #expect(server.requests.count == 2)
    }

    /// The same items around something that changes on every answer (a timestamp) are a repeat too.
    @Test func theSameItemsInADifferentBodyAreARepeat() async throws {
        let served = Mutex(0)
        let server = try HTTPServer { _ in
            let n = served.withLock { $0 += 1; return $0 }
            return .json(#"{"generated": \#(n), "data": {"after": "c1", "children": \#(Self.items)}}"#)
        }
        defer { server.stop() }
        let folder = Folder()
        let feed = try Feed(template: server.url("/r.json").absoluteString, pagination: Pagination(.cursor(path: "data.after", parameter: "after")))
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())

        #expect(try await loader.load(1).items.count == 2)
        let second = try await loader.load(2)
        #expect(second.isLastPage && second.items.isEmpty)
        #expect(second.endReason == "the server returned page 1 again: it ignores the 'after' parameter?")
    }

    /// Pages asked for at once (as `riffle dump` does): the later ones may arrive first, and still
    /// each is compared with the one before it.
    @Test func pagesInFlightTogetherAreComparedInOrder() async throws {
        let asked = Mutex<Set<String>>([])
        let server = try HTTPServer { request in
            let page = request.query("page") ?? ""
            asked.withLock { _ = $0.insert(page) }
            if page == "1" {
                // Page 1 is answered only once pages 2 and 3 were asked for too (`patience` at most).
                let deadline = ContinuousClock.now + patience
                while asked.withLock({ $0.count < 3 }), ContinuousClock.now < deadline { usleep(1_000) }
            }
            return .json(Self.items)
        }
        defer { server.stop() }
        let folder = Folder()
        var configuration = PageLoader.Configuration()
        configuration.maxConcurrentFetches = 4
        let loader = PageLoader(feed: try Feed(template: server.baseURL.absoluteString + "/p?page={page}"), cacheDirectory: folder.url,
                                transport: CurlTransport(), configuration: configuration)

        let pages = try await withThrowingTaskGroup(of: Page.self) { group in
            for number in 1...3 { group.addTask { try await loader.load(number) } }
            return try await group.reduce(into: [Int: Page]()) { $0[$1.number] = $1 }
        }
        #expect(pages[1]?.items.count == 2 && pages[1]?.isLastPage == false)
        #expect(pages[2]?.endReason == "the server returned page 1 again: it ignores {page}?")
        #expect(pages[3]?.endReason == "the server returned page 2 again: it ignores {page}?")
        #expect(asked.withLock { $0 } == ["1", "2", "3"])
    }

    @Test func pagesOfAFeedThatMovesOnAreNoRepeat() async throws {
        let server = try PaginationServer.start()
        defer { server.stop() }
        let folder = Folder()
        let loader = PageLoader(feed: try Feed(template: server.baseURL.absoluteString + "/more?page={page}"), cacheDirectory: folder.url,
                                transport: CurlTransport())
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(\.items.count) == [2, 2, 1])
        #expect(pages.allSatisfy { $0.endReason == nil })
    }

    /// The same body under another path is a repeat, whether its items are known by links (paths,
    /// resolved against each page's URL) or by nothing at all.
    @Test(arguments: [#"[{"title": "one", "url": "/item/1"}, {"title": "two", "url": "/item/2"}]"#,
                      #"[{"title": "one"}, {"title": "two"}]"#])
    func theSameBodyUnderAnotherPathIsARepeat(items: String) async throws {
        let server = try HTTPServer { _ in .json(#"{"hits": \#(items)}"#) }
        defer { server.stop() }
        let folder = Folder()
        let feed = try Feed(template: server.baseURL.absoluteString + "/page/{page}/index.json")
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())
        #expect(try await loader.load(1).items.count == 2)
        let second = try await loader.load(2)
        #expect(second.items.isEmpty && second.isLastPage, "\(second.items.map(\.url))")
        #expect(second.endReason == "the server returned page 1 again: it ignores {page}?")
    }

    /// A newest-first feed that moved on by exactly a page while its reader read page 1 serves as
    /// page 2 what page 1 held then, item for item: that is the feed moving, not a repeat. The same
    /// page 2 within minutes of page 1 is one.
    @Test(arguments: [(3_600.0, false), (60.0, true)])
    func aPageLikeOneFetchedLongBeforeIsNoRepeat(after seconds: TimeInterval, repeats: Bool) async throws {
        let newest = Mutex(10)
        let server = try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 1
            let top = newest.withLock { $0 } - 2 * (page - 1)
            return .json(#"{"hits": [{"id": \#(top), "title": "story \#(top)"}, {"id": \#(top - 1), "title": "story \#(top - 1)"}]}"#)
        }
        defer { server.stop() }
        let folder = Folder()
        let clock = CacheTestClock()
        let loader = PageLoader(feed: try Feed(template: server.baseURL.absoluteString + "/new?page={page}"), cacheDirectory: folder.url,
                                transport: CurlTransport(), clock: clock.closure)
        #expect(try await loader.load(1).items.map(\.title) == ["story 10", "story 9"])
        // Two new stories arrive while page 1 is read.
        newest.withLock { $0 = 12 }
        clock.advance(seconds)
        let second = try await loader.load(2)
        if repeats {
            #expect(second.items.isEmpty && second.endReason == "the server returned page 1 again: it ignores {page}?")
        } else {
            #expect(second.items.map(\.title) == ["story 10", "story 9"] && second.endReason == nil && !second.isLastPage)
        }
    }

    /// Pages of one length under a long header that never changes (an envelope's metadata) differ
    /// only past their first hundred bytes: they are not a repeat. (Foundation hashes a `Data` by
    /// its length and first 80 bytes, which took these pages for one.)
    @Test func pagesThatDifferOnlyFarIntoTheBodyAreNoRepeat() async throws {
        let header = #"{"meta": {"api": "v2", "note": "\#(String(repeating: "x", count: 100))"}, "items": "#
        let server = try HTTPServer { request in
            let n = Int(request.query("page") ?? "") ?? 0
            return .json(header + #"[{"id": "a\#(n)", "title": "story \#(n)"}]}"#)
        }
        defer { server.stop() }
        let folder = Folder()
        let loader = PageLoader(feed: try Feed(template: server.baseURL.absoluteString + "/feed?page={page}"), cacheDirectory: folder.url,
                                transport: CurlTransport())
        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map(\.data.count) == Array(repeating: pages[0].data.count, count: 3), "the pages are of one length")
        #expect(pages.map { $0.items.map(\.title) } == [["story 1"], ["story 2"], ["story 3"]])
        #expect(pages.allSatisfy { $0.endReason == nil && !$0.isLastPage })
    }

    /// A cursor that leads back to an earlier page (the last page's cursor is the first one again)
    /// would page round and round for ever: the page that repeats any page before it ends the feed.
    @Test func aCursorThatLeadsBackToAnEarlierPageEndsTheFeed() async throws {
        // No cursor: items 1-2 and cursor A; A: items 3-4 and B; B: items 5-6 and A again.
        let server = try HTTPServer { request in
            let (first, next) = switch request.query("after") {
            case nil: (1, "A")
            case "A": (3, "B")
            default: (5, "A")
            }
            return .json(#"{"data": {"after": "\#(next)", "children": [{"id": \#(first), "title": "item \#(first)"}, {"id": \#(first + 1), "title": "item \#(first + 1)"}]}}"#)
        }
        defer { server.stop() }
        let folder = Folder()
        let feed = try Feed(template: server.url("/r.json").absoluteString, pagination: Pagination(.cursor(path: "data.after", parameter: "after")))
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())

        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3)]
        #expect(pages.map { $0.items.map(\.title) } == [["item 1", "item 2"], ["item 3", "item 4"], ["item 5", "item 6"]])
        let fourth = try await loader.load(4)
        #expect(fourth.items.isEmpty && fourth.isLastPage, "\(fourth.items.map(\.title))")
        #expect(fourth.endReason == "the server returned page 2 again: its pages go round")
        let asked = server.requests.count
        #expect(try await loader.load(5).isLastPage)
        #expect(server.requests.count == asked, "nothing is asked past the repeat")
    }

    /// A cursor that leads back to an earlier page's, from a server whose answers change every time
    /// (other items, a timestamp): no page repeats another, yet asking on would go round for ever.
    /// The page whose URL is an earlier page's ends the feed without being asked for.
    @Test(arguments: [Pagination(.cursor(path: "data.after", parameter: "after")), Pagination(.linkHeader)])
    func aNextLinkBackToAnEarlierPageEndsTheFeedWhateverThePagesHold(pagination: Pagination) async throws {
        let answers = CacheShared(0)
        let server = try HTTPServer { request in
            // No cursor, then A, B, A, B...: each answer with two items never seen before.
            let next = request.query("after") == "A" ? "B" : "A"
            let first = answers.withLock { count in
                count += 1
                return count * 10
            }
            let items = #"[{"id": \#(first), "title": "item \#(first)"}, {"id": \#(first + 1), "title": "item \#(first + 1)"}]"#
            return .json(#"{"data": {"after": "\#(next)", "children": \#(items)}}"#, headers: [("Link", "</r.json?after=\(next)>; rel=\"next\"")])
        }
        defer { server.stop() }
        let folder = Folder()
        var feed = try Feed(template: server.url("/r.json").absoluteString, pagination: pagination)
        feed.itemPath = JSONPath("data.children")
        let loader = PageLoader(feed: feed, cacheDirectory: folder.url, transport: CurlTransport())

        // As `riffle dump --refresh` asks (and any load of pages the server says not to keep): the
        // cache does not answer page 4 with page 2's stored answer.
        var pages: [Page] = []
        for number in 1...4 { pages.append(try await loader.load(number, policy: .reloadIgnoringCache)) }

        #expect(pages.map { $0.items.count } == [2, 2, 2, 0])
        #expect(pages[3].isLastPage && pages[3].endReason == "the server returned page 2 again: its pages go round")
        #expect(try await loader.load(5, policy: .reloadIgnoringCache).isLastPage)
        #expect(server.requests.map { $0.query("after") } == [nil, "A", "B"], "nothing is asked past the loop")
    }

    /// A server that answers a page past its end with its first page: that page is not listed twice,
    /// whether its items are known by their ids or only the body can tell.
    @Test(arguments: [true, false])
    func aPagePastTheEndAnsweredWithTheFirstEndsTheFeed(ids: Bool) async throws {
        let server = try HTTPServer { request in
            let asked = Int(request.query("page") ?? "") ?? 1
            let page = (1...3).contains(asked) ? asked : 1
            let items = ["a", "b"].map { ids ? #"{"id": "\#(page)\#($0)", "title": "\#(page)\#($0)"}"# : #"{"title": "\#(page)\#($0)"}"# }
            return .json("[" + items.joined(separator: ", ") + "]")
        }
        defer { server.stop() }
        let folder = Folder()
        var configuration = PageLoader.Configuration()
        let answers = Mutex<[Int: Bool]>([:])
        configuration.answered = { page, more in answers.withLock { $0[page] = more } }
        let loader = PageLoader(feed: try Feed(template: server.baseURL.absoluteString + "/feed?page={page}"), cacheDirectory: folder.url,
                                transport: CurlTransport(), configuration: configuration)

        let pages = [try await loader.load(1), try await loader.load(2), try await loader.load(3), try await loader.load(4)]
        #expect(pages.map { $0.items.map(\.title) } == [["1a", "1b"], ["2a", "2b"], ["3a", "3b"], []])
        #expect(pages[3].isLastPage && pages[3].endReason == "the server returned page 1 again: its pages go round")
        #expect(answers.withLock { $0 } == [1: true, 2: true, 3: true, 4: false], "a dump asks for no page after it")
        #expect(try await loader.load(5).isLastPage)
        #expect(server.requests.count == 4, "nothing is asked past the repeat")
    }
}
