import Foundation
import RiffleTestSupport
import Synchronization
import RiffleKit
@testable import RiffleBrowser
import RiffleTUI

/// A page source whose loads wait until the test answers them, recording every call.
final class MockPageSource: PageSourcing, @unchecked Sendable {
    // @unchecked: `calls` and `waiting` are only read and written with `condition` locked.
    struct Call: Equatable, Sendable {
        var page: Int
        var policy: CachePolicy
    }

    private let condition = NSCondition()
    private var calls: [Call] = []
    private var waiting: [(page: Int, answer: CheckedContinuation<Result<Page, FeedError>, Never>)] = []
    /// What `peekCachedPage` returns.
    let stored: [Int: Page]
    /// Each item's comments, by `Item.readingKey`; nil: the feed has none.
    let threads: [String: CommentThread]?

    init(stored: [Int: Page] = [:], threads: [String: CommentThread]? = nil) {
        self.stored = stored
        self.threads = threads
    }

    var hasComments: Bool { threads != nil }

    func comments(for item: Item, policy: CachePolicy) async throws(FeedError) -> CommentThread? {
        guard let threads else { return nil }
        guard let thread = threads[item.readingKey] else { throw .request(.httpStatus(code: 404, excerpt: "")) }
        return thread
    }

    func discussionPage(for item: Item) -> URL? {
        threads == nil ? nil : URL(string: "https://discussion.example/\(item.readingKey)")
    }

    func load(_ number: Int, policy: CachePolicy) async throws(FeedError) -> Page {
        let result = await withCheckedContinuation { continuation in
            condition.lock()
            calls.append(Call(page: number, policy: policy))
            waiting.append((number, continuation))
            condition.broadcast()
            condition.unlock()
        }
        return try result.get()
    }

    func peekCachedPage(_ number: Int) -> Page? { stored[number] }

    /// What `confirmPeekedPages` answers, once.
    let corrections = LockedValue<[PeekCorrection]>([])

    func confirmPeekedPages() -> [PeekCorrection] {
        let due = corrections.get()
        corrections.set([])
        return due
    }

    /// Every load asked for so far, first one first.
    var recordedCalls: [Call] {
        condition.lock()
        defer { condition.unlock() }
        return calls
    }

    /// Waits (on the calling thread) up to `timeout` seconds until `done` holds for the loads asked for
    /// so far; returns them.
    func waitForCalls(timeout: TimeInterval = patienceInterval, until done: ([Call]) -> Bool) -> [Call] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(calls), condition.wait(until: deadline) {}
        return calls
    }

    /// Answers the oldest waiting load of `page`; false when none waits.
    @discardableResult
    func answer(_ page: Int, with result: Result<Page, FeedError>) -> Bool {
        condition.lock()
        guard let index = waiting.firstIndex(where: { $0.page == page }) else {
            condition.unlock()
            return false
        }
        let continuation = waiting.remove(at: index).answer
        condition.unlock()
        continuation.resume(returning: result)
        return true
    }

    /// Fails every load still waiting, so no task outlives the test.
    func failEverythingWaiting() {
        condition.lock()
        let pending = waiting
        waiting.removeAll()
        condition.unlock()
        for (_, continuation) in pending { continuation.resume(returning: .failure(.request(.transport("test over")))) }
    }
}

/// A `BrowserLoop` running on a thread of its own, as riffle runs it on the main thread.
final class LoopRun: Sendable {
    let terminal: InMemoryTerminal
    let pages: MockPageSource
    let notices = Notices()
    private let finished = DispatchSemaphore(value: 0)
    private let status = LockedValue<Int32?>(nil)

    convenience init(terminal: InMemoryTerminal, pages: MockPageSource, now: Date = LoopFixture.now) {
        self.init(terminal: terminal, pages: pages) { notices in
            BrowserLoop(terminal: terminal, pages: pages, title: "feed", now: { now }, notices: notices).run()
        }
    }

    /// A run of the loop `run` makes (with the run's `notices`) and runs, on the thread started here.
    init(terminal: InMemoryTerminal, pages: MockPageSource, run: @escaping @Sendable (Notices) -> Int32) {
        self.terminal = terminal
        self.pages = pages
        let thread = Thread { [finished, status, notices] in
            status.set(run(notices))
            finished.signal()
        }
        thread.start()
    }

    /// The loop's exit status once it has returned, waiting up to `timeout` seconds; nil if it did not.
    func exitStatus(timeout: TimeInterval = patienceInterval) async -> Int32? {
        let finished = finished
        let ended = await offThread { finished.wait(timeout: .now() + timeout) == .success }
        if ended { finished.signal() }  // later calls see it too
        return ended ? status.get() : nil
    }

    /// Waits for a frame for which `matches` holds (see `InMemoryTerminal.waitForFrame`).
    func frame(timeout: TimeInterval = patienceInterval, where matches: @escaping @Sendable (Buffer) -> Bool) async -> Buffer? {
        let terminal = terminal
        return await offThread { terminal.waitForFrame(timeout: timeout, where: matches) }
    }

    /// Waits until `count` loads were asked for; returns every load asked for.
    func calls(_ count: Int, timeout: TimeInterval = patienceInterval) async -> [MockPageSource.Call] {
        await calls(timeout: timeout) { $0.count >= count }
    }

    /// Waits until `done` holds for the loads asked for; returns them.
    func calls(timeout: TimeInterval = patienceInterval, until done: @escaping @Sendable ([MockPageSource.Call]) -> Bool) async -> [MockPageSource.Call] {
        let pages = pages
        return await offThread { pages.waitForCalls(timeout: timeout, until: done) }
    }
}

/// A value behind a lock.
final class LockedValue<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func get() -> Value { value.withLock { $0 } }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
}

/// Runs a blocking wait on a thread of its own, so it never holds one of the few cooperative threads
/// the loop's tasks need to make progress.
func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

enum LoopFixture {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let size = Size(width: 40, height: 8)

    static func page(_ number: Int, titles: [String], source: Page.Source, fetchedAgo: TimeInterval = 60) -> Page {
        let items = titles.map { Item(id: $0, title: $0, details: [], url: nil, createdAt: nil, fields: .object(JSONObject())) }
        return Page(number: number, items: items, data: Data(), source: source, fetchedAt: now.addingTimeInterval(-fetchedAgo), status: 200)
    }
}
