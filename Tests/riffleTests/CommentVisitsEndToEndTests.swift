import DemoServer
import Foundation
import Synchronization
import Testing

/// A comment written between two visits is marked new, counted and jumped to, for the thread
/// shapes of Reddit (a listing of nested `t1` things) and Lobsters (one flat list with `depth`),
/// read through riffle's own presets with their hosts moved to 127.0.0.1 (HN's shape:
/// `CommentsEndToEndTests`).
@Suite("a comment new since the last visit, in Reddit's and Lobsters' shapes, in a real terminal (tmux)", .serialized)
struct CommentVisitsEndToEndTests {
    typealias Home = DailyEndToEndTests.Home
    typealias Switch = CommentsEndToEndTests.Switch

    /// A site's saved answers and where riffle asks for them.
    struct Site: CustomTestStringConvertible, Sendable {
        var preset: String
        var host: String
        var listingPath: String, listing: String
        var threadPath: String, thread: String
        /// Puts one top-level comment by `newcomer`, written after every other, into the thread.
        var grow: @Sendable (inout Any) throws -> Void
        /// Keys from the list to the story whose thread is served.
        var select: [String]
        var story: String
        var firstComment: String
        var testDescription: String { preset }
    }

    static let late = "A late reply, written after the first visit."

    static let reddit = Site(
        preset: "reddit:swift", host: "https://www.reddit.com",
        listingPath: "/r/swift/hot.json", listing: "reddit-listing.json",
        threadPath: "/comments/1h2k9qz.json", thread: "reddit-comments.json",
        grow: { answer in
            guard var listings = answer as? [Any], var comments = listings[1] as? [String: Any],
                  var data = comments["data"] as? [String: Any], var children = data["children"] as? [Any] else { throw Failure() }
            children.append(["kind": "t1", "data": ["id": "zz9late", "name": "t1_zz9late", "author": "newcomer", "body": late,
                                                    "body_html": "<div class=\"md\"><p>\(late)</p>\n</div>",
                                                    "created_utc": 1_900_000_000, "replies": "", "distinguished": NSNull(),
                                                    "permalink": "/r/swift/comments/1h2k9qz/weekly/zz9late/"] as [String: Any]])
            data["children"] = children
            comments["data"] = data
            listings[1] = comments
            answer = listings
        },
        select: [], story: "Weekly Swift Questions Thread", firstComment: "How do I make an")

    static let lobsters = Site(
        preset: "lobsters", host: "https://lobste.rs",
        listingPath: "/page/1.json", listing: "lobsters.json",
        threadPath: "/s/3xwz0a.json", thread: "lobsters-story.json",
        grow: { answer in
            guard var story = answer as? [String: Any], var comments = story["comments"] as? [Any] else { throw Failure() }
            comments.append(["short_id": "zz9lat", "short_id_url": "https://lobste.rs/c/zz9lat", "created_at": "2030-03-17T17:46:40.000-05:00",
                             "is_deleted": false, "is_moderated": false, "score": 1, "flags": 0, "parent_comment": NSNull(),
                             "comment": "<p>\(late)</p>", "comment_plain": late, "depth": 0, "commenting_user": "newcomer"] as [String: Any])
            story["comments"] = comments
            answer = story
        },
        select: ["j"], story: "What is your favourite JSON tool", firstComment: "jq still, but gron")

    struct Failure: Error {}

    /// The site's answers on 127.0.0.1; with `late` on, the thread has the newcomer's comment.
    static func server(_ site: Site, late: Switch) throws -> HTTPServer {
        let listing = try DailyEndToEndTests.fixture(site.listing), saved = try DailyEndToEndTests.fixture(site.thread)
        var grown = try JSONSerialization.jsonObject(with: saved)
        try site.grow(&grown)
        let later = try JSONSerialization.data(withJSONObject: grown)
        let listingPath = site.listingPath, threadPath = site.threadPath
        return try HTTPServer { request in
            switch request.path {
            case listingPath: .json(listing)
            case threadPath: .json(late.on.withLock { $0 } ? later : saved)
            default: .json("[]")
            }
        }
    }

    /// riffle's own presets file with `site.host` replaced by the server's address.
    static func presets(_ site: Site, _ server: HTTPServer, in home: Home) throws -> String {
        let builtIn = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../Assets/presets/presets.json").standardizedFileURL, encoding: .utf8)
        #expect(builtIn.contains(site.host))
        let file = home.config.appending(path: "presets-local.json")
        try Data(builtIn.replacingOccurrences(of: site.host, with: server.baseURL.absoluteString).utf8).write(to: file)
        return file.path
    }

    @Test(arguments: [reddit, lobsters])
    func aCommentWrittenSinceTheLastVisitIsMarkedCountedAndJumpedTo(site: Site) async throws {
        let home = try Home()
        let late = Switch()
        let server = try Self.server(site, late: late)
        defer { server.stop() }
        var environment = home.environment
        environment["RIFFLE_PRESETS"] = try Self.presets(site, server, in: home)
        func open() async throws -> TmuxSession {
            let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", home.cache.path, site.preset], width: 110, height: 40,
                                          environment: environment, socketPrefix: "daily")
            #expect(await session.waitFor { session.screen().contains(site.story) }, "\(session.screen())")
            for key in site.select { try session.send(key) }
            try session.send("c")
            #expect(await session.waitFor { session.screen().contains(site.firstComment) }, "\(session.screen())")
            return session
        }

        // Given the thread read once: nothing is new on a first visit
        var session = try await open()
        #expect(!session.screen().contains("new comment"), "\(session.screen())")
        #expect(!session.screen().contains("newcomer"), "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)

        // When a comment arrives and the thread is read again (r fetches it past the cache)
        late.on.withLock { $0 = true }
        session = try await open()
        try session.send("r")
        // Then it is counted above the thread and in the status bar, and u jumps to it, marked new
        #expect(await session.waitFor { session.screen().contains("1 new comment") }, "\(session.screen())")
        #expect(DailyEndToEndTests.statusBar(session).contains("1 new"), "\(session.screen())")
        try session.send("u")
        #expect(await session.waitFor { session.screen().contains("newcomer new") && session.screen().contains(Self.late) },
                "\(session.screen())")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }
}
