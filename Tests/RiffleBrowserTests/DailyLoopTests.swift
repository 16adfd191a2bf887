import Foundation
import RiffleKit
import RiffleReading
import RiffleStorage
import Testing
@testable import RiffleBrowser
import RiffleTUI

@Suite("the run loop and the reading log, comments, the clipboard and the feed list")
struct DailyLoopTests {
    /// A fresh cache folder, removed after.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-loop-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let reference = ReadingLog.FeedRef(id: "feed-1", name: "demo", title: "feed")
    static let page = LoopFixture.page(1, titles: ["one", "two", "three"], source: .cache)

    /// A loop on `pages` with the reading log in `folder`, the clock moved by the test.
    static func run(_ pages: MockPageSource, folder: Folder, clock: LockedValue<Date>, terminal: InMemoryTerminal = InMemoryTerminal(size: Self.size),
                    copied: LockedValue<[String]> = LockedValue([]), shelf: (any FeedShelving)? = nil, start: BrowserLoop<ProbeTerminal>.Start? = nil,
                    firstDrawSawLog: LockedValue<Bool?> = LockedValue(nil)) -> LoopRun {
        let log = ReadingLog(cacheDirectory: folder.url)
        let path = log.path
        return LoopRun(terminal: terminal, pages: pages) { notices in
            let services = BrowserLoop<ProbeTerminal>.Services(copy: { text in copied.set(copied.get() + [text]); return nil },
                                                               log: log, shelf: shelf, notices: notices)
            let probe = ProbeTerminal(terminal) {
                if firstDrawSawLog.get() == nil { firstDrawSawLog.set(FileManager.default.fileExists(atPath: path)) }
            }
            let loop = BrowserLoop(terminal: probe, start: start ?? .feed(OpenedFeed(pages: pages, title: "feed", reference: reference)),
                                   services: services, now: { clock.get() })
            return loop.run()
        }
    }

    static let size = Size(width: 80, height: 8)
    /// How long a wait may take: the log's and the shelf's tasks run on the cooperative pool, which
    /// other tests share on a loaded 2-core machine (in the whole suite both waits below have seen
    /// their frame come after 60 s). A wait that succeeds returns at once.
    static let patience: TimeInterval = 120

    @Test func theLogOpensAfterTheFirstFrameAndSeenMarksLastAcrossRuns() async throws {
        let folder = Folder()
        let clock = LockedValue(LoopFixture.now)
        let sawLog = LockedValue<Bool?>(nil)
        // Given a feed with its page on disk
        let pages = MockPageSource(stored: [1: Self.page])
        defer { pages.failEverythingWaiting() }
        let run = Self.run(pages, folder: folder, clock: clock, firstDrawSawLog: sawLog)
        // When the first frame is up, no reading log was open for it; then the log answers (3 new)
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("3 new") } != nil, "\(run.terminal.lastFrame?.description ?? "")")
        #expect(sawLog.get() == false, "the reading log was opened before the first frame")
        // When the first item is opened (Enter, then back), it becomes seen
        run.terminal.send(.key(.enter))
        run.terminal.send(.key(.escape))
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("2 new") } != nil)
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus(timeout: Self.patience) == 0)
        // Then another run finds it seen, and every listed item searchable
        let log = ReadingLog(cacheDirectory: folder.url)
        #expect(try await log.seenKeys(feed: Self.reference.id) == ["id:one"])
        #expect(try await log.search("three").map(\.title) == ["three"])
        let pages2 = MockPageSource(stored: [1: Self.page])
        defer { pages2.failEverythingWaiting() }
        let again = Self.run(pages2, folder: folder, clock: LockedValue(LoopFixture.now))
        #expect(await again.frame(timeout: Self.patience) { $0.description.contains("2 new") } != nil, "\(again.terminal.lastFrame?.description ?? "")")
        again.terminal.send(.key(.character("q")))
        #expect(await again.exitStatus(timeout: Self.patience) == 0)
    }

    /// Another program (a second riffle trimming the log or filing a dump's items, a backup, a
    /// `sqlite3` shell) holding the reading log's write lock longer than a write waits for it.
    @Test func aMarkMadeWhileAnotherProgramHoldsTheLogsLockIsSavedOnceItIsFree() async throws {
        let folder = Folder()
        let pages = MockPageSource(stored: [1: Self.page])
        defer { pages.failEverythingWaiting() }
        let run = Self.run(pages, folder: folder, clock: LockedValue(LoopFixture.now), terminal: InMemoryTerminal(size: Size(width: 120, height: 8)))
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("3 new") } != nil, "\(run.terminal.lastFrame?.description ?? "")")
        // Given another connection, as another process has, holding the log's write lock
        let holder = try SQLiteDatabase(path: folder.url.appendingPathComponent(ReadingLog.fileName).path, access: .readWrite)
        let deadline = ContinuousClock.now + .seconds(Self.patience)
        while (try? holder.execute("BEGIN IMMEDIATE")) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // When the first item is marked seen
        run.terminal.send(.key(.character("m")))
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("2 new") } != nil)
        // Then the toast says the mark is kept (before: "SQLite 5: database is locked", and the mark was dropped)
        let told = await run.frame(timeout: Self.patience) { $0.description.contains("reading log") }
        #expect(told?.description.contains("marks are kept") == true, "\(told?.description ?? "no toast")")
        #expect(told?.description.contains("SQLite") == false)
        // When the lock is let go and the browser quits, the mark is saved before the end
        try holder.execute("COMMIT")
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus(timeout: Self.patience) == 0)
        let log = ReadingLog(cacheDirectory: folder.url)
        #expect(try await log.seenKeys(feed: Self.reference.id) == ["id:one"])
    }

    @Test func commentsComeFromTheSourceAndYankGoesToTheClipboard() async throws {
        let folder = Folder()
        let thread = CommentThread(comments: [.init(depth: 0, author: "ann", text: "a comment", createdAt: nil)])
        let item = Item(id: "one", title: "one", details: [], url: "https://example.com/one", createdAt: nil, fields: ["id": "one"])
        let page = Page(number: 1, items: [item], data: Data(), source: .cache, fetchedAt: LoopFixture.now, status: 200)
        let pages = MockPageSource(stored: [1: page], threads: ["id:one": thread])
        defer { pages.failEverythingWaiting() }
        let copied = LockedValue<[String]>([])
        let run = Self.run(pages, folder: folder, clock: LockedValue(LoopFixture.now), copied: copied)
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("one") } != nil)
        // y copies the link and says so
        run.terminal.send(.key(.character("y")))
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("copied link") } != nil)
        #expect(copied.get() == ["https://example.com/one"])
        // c shows the thread
        run.terminal.send(.key(.character("c")))
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("a comment") } != nil, "\(run.terminal.lastFrame?.description ?? "")")
        run.terminal.send(.key(.character("q")))
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus(timeout: Self.patience) == 0)
    }

    /// Feeds a test lists and opens; each opens on a source of its own.
    final class MockShelf: FeedShelving {
        let sources: [String: MockPageSource]
        init(_ sources: [String: MockPageSource]) { self.sources = sources }
        func entries() async -> [FeedEntry] { sources.keys.sorted().map { FeedEntry(name: $0, description: "about \($0)", origin: .feedsFile) } }
        func summary(of entry: FeedEntry) async -> FeedSummary { FeedSummary(unseen: entry.name.count, fetchedAt: nil) }
        func open(_ name: String) throws(OpenFailure) -> OpenedFeed {
            guard let pages = sources[name] else { throw OpenFailure("unknown feed '\(name)'") }
            return OpenedFeed(pages: pages, title: name, reference: ReadingLog.FeedRef(id: name, name: name, title: name))
        }
    }

    @Test func theFeedListOpensFeedsAndALateAnswerFromTheLastFeedIsDropped() async throws {
        let folder = Folder()
        // Given two feeds: alpha waiting for its page, beta with its page on disk
        let alpha = MockPageSource()
        let beta = MockPageSource(stored: [1: LoopFixture.page(1, titles: ["beta item"], source: .cache)])
        defer { alpha.failEverythingWaiting(); beta.failEverythingWaiting() }
        let run = Self.run(alpha, folder: folder, clock: LockedValue(LoopFixture.now), shelf: MockShelf(["alpha": alpha, "beta": beta]),
                           start: .feedList)
        // When the list shows with counts, and Enter on the first opens alpha
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("alpha") && $0.description.contains("5 new") } != nil,
                "\(run.terminal.lastFrame?.description ?? "")")
        run.terminal.send(.key(.enter))
        #expect(await run.calls(1, timeout: Self.patience) == [.init(page: 1, policy: .returnCacheElseLoad)])
        // And q goes back to the list, j and Enter open beta
        run.terminal.send(.key(.character("q")))
        run.terminal.send(.key(.character("j")))
        run.terminal.send(.key(.enter))
        #expect(await run.frame(timeout: Self.patience) { $0.description.contains("beta item") } != nil, "\(run.terminal.lastFrame?.description ?? "")")
        // Then alpha's late answer does not reach beta's list
        alpha.answer(1, with: .success(LoopFixture.page(1, titles: ["alpha item"], source: .network)))
        run.terminal.send(.key(.character("j")))
        let after = await run.frame(timeout: Self.patience) { _ in true }
        #expect(after?.description.contains("alpha item") == false)
        run.terminal.send(.key(.character("q")))
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus(timeout: Self.patience) == 0)
    }
}

/// A terminal that tells the test about each frame before the in-memory terminal under it draws it.
final class ProbeTerminal: TerminalBackend {
    let inner: InMemoryTerminal
    let beforeDraw: () -> Void
    init(_ inner: InMemoryTerminal, beforeDraw: @escaping () -> Void) {
        self.inner = inner
        self.beforeDraw = beforeDraw
    }
    var size: Size { inner.size }
    func draw(_ buffer: Buffer) {
        beforeDraw()
        inner.draw(buffer)
    }
    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? { inner.nextEvent(timeoutMilliseconds: timeoutMilliseconds) }
    func takeQuitSignal() -> Int32? { inner.takeQuitSignal() }
    func restore() { inner.restore() }
}
