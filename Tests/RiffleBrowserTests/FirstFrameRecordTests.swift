import DemoServer
import Foundation
import RiffleTestSupport
import RiffleKit
import RiffleStorage
import Testing
@testable import RiffleBrowser
import RiffleTUI

/// The first frame is painted from the page file and the record kept on it, without the cache's
/// index; the index is checked right after, and a page it describes otherwise is corrected or
/// taken off the screen. Each test stores page 1 through a real loader and server, tampers with the
/// index as another process, a crash or a careless script could, and runs the loop on a fresh loader
/// (a new process's view of the same folder).
@Suite("the first frame from a page file's record, checked against the index after")
struct FirstFrameRecordTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-first-frame-\(UUID().uuidString)")
    /// Released when the test ends: a server answering `hanging` requests waits for it.
    let release = DispatchSemaphore(value: 0)
    /// Set when the test wants every request to fail (410). Not `stop()`: a port let go may be taken
    /// at once by another test's server, which would answer (or hang) in its place.
    let down = LockedValue(false)

    /// A server of one page whose first title is "first story", fresh for an hour; with `hanging`,
    /// answers after the first wait until the test ends (at most 30 s), then fail: nothing is stored
    /// in a folder the test has removed.
    func server(hanging: Bool = false) throws -> HTTPServer {
        let asked = LockedValue(0)
        let release = release, down = down
        return try HTTPServer { _ in
            if down.get() { return .text("gone", status: 410) }
            let count = asked.get() + 1
            asked.set(count)
            if hanging, count > 1 {
                release.waitForTest()
                return .json("{}", status: 503)
            }
            return .json(#"{"items": [{"id": 1, "title": "first story"}, {"id": 2, "title": "second story"}]}"#,
                         headers: [("Cache-Control", "max-age=3600")])
        }
    }

    func loader(_ server: HTTPServer) throws -> PageLoader {
        PageLoader(feed: try Feed(template: server.url("/feed").absoluteString + "?page={page}"), cacheDirectory: folder, transport: patientTransport())
    }

    var indexPath: String { folder.appendingPathComponent("responses/index.sqlite").path }

    /// Stores page 1 through a loader that is gone when this returns, with its connection to the index.
    func storePage(_ server: HTTPServer) async throws {
        do {
            let seeding = try loader(server)
            #expect(try await seeding.load(1).source == .network)
        }
        let path = indexPath
        let closed = await offThread { () -> Bool in
            let deadline = Date(timeIntervalSinceNow: 10)
            while WatchingTerminal.isOpen(path), Date() < deadline { usleep(1_000) }
            return !WatchingTerminal.isOpen(path)
        }
        #expect(closed, "the seeding loader still holds the index open")
    }

    func index() throws -> SQLiteDatabase { try SQLiteDatabase(path: indexPath, access: .readWrite) }

    func cleanUp(_ server: HTTPServer) {
        release.signal()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the loop on `pages` until `done` holds for a frame (or 30 s), then quits it.
    func browse(_ pages: PageLoader, _ terminal: WatchingTerminal, until done: @escaping @Sendable (Buffer) -> Bool) async -> Buffer? {
        let finished = DispatchSemaphore(value: 0)
        Thread {
            _ = BrowserLoop(terminal: terminal, pages: pages, title: "feed").run()
            finished.signal()
        }.start()
        let frame = await offThread { terminal.inner.waitForFrame(timeout: patienceInterval, where: done) }
        terminal.inner.send(.key(.character("q")))
        #expect(await offThread { finished.wait(timeout: .now() + patienceInterval) == .success })
        return frame
    }

    @Test func theFirstFrameOpensNoIndexAndTheIndexIsCheckedBeforeAKeyIsRead() async throws {
        let server = try server()
        defer { cleanUp(server) }
        try await storePage(server)
        let terminal = WatchingTerminal(indexPath: indexPath)
        _ = await browse(try loader(server), terminal) { $0.description.contains("first story") }
        let first = terminal.inner.frames.first?.description ?? ""
        #expect(first.contains("first story") && first.contains("cache"), "\(first)")
        #expect(terminal.openAtFirstFrame.get() == false, "the index was open when the first frame was painted")
        #expect(terminal.openAtFirstKeyWait.get() == true, "the index was not checked after the first frame")
        #expect(server.requestCount == 1)
    }

    @Test func aPageTheIndexGivesToAnotherRequestLeavesTheScreen() async throws {
        let server = try server()
        defer { cleanUp(server) }
        try await storePage(server)
        // The index says the file answers another request (another URL, other credentials).
        try index().execute("UPDATE entries SET key = ?", [.text(String(repeating: "a", count: 64))])
        down.set(true)
        let terminal = WatchingTerminal(indexPath: indexPath)
        let last = await browse(try loader(server), terminal) { $0.description.contains("page 1 failed") }
        #expect(last != nil, "\(terminal.inner.lastFrame?.description ?? "")")
        #expect(last?.description.contains("first story") == false, "\(last?.description ?? "")")
        // Painted from its record first, then taken off as soon as the index was read.
        #expect(terminal.inner.frames.first?.description.contains("first story") == true)
    }

    @Test func aPageTheIndexSaysIsStaleIsShownStaleRightAfterTheFirstFrame() async throws {
        let server = try server(hanging: true)
        defer { cleanUp(server) }
        try await storePage(server)
        // The index knows better than the file's record: fetched two hours ago (another process's
        // write whose record was lost, say). Its revalidation hangs, so only the check says so.
        try index().execute("UPDATE entries SET fetched_at = fetched_at - 7200")
        let terminal = WatchingTerminal(indexPath: indexPath)
        let corrected = await browse(try loader(server), terminal) { $0.description.contains("stale") }
        #expect(corrected?.description.contains("first story") == true, "\(terminal.inner.lastFrame?.description ?? "")")
        #expect(terminal.inner.frames.first?.description.contains("stale") == false)
    }

    @Test func aReplacedFileCarryingTheRecordLeavesTheScreen() async throws {
        let server = try server()
        defer { cleanUp(server) }
        try await storePage(server)
        // Another file of the same size put in the page's place with the page's record copied onto it.
        let file = try loader(server).store.bodyURL(1)
        let storage = CacheFolder(root: folder)
        let folders = Array(file.pathComponents.suffix(3).dropLast()), name = file.lastPathComponent
        guard case .data(let original, let record, _) = storage.readRecorded(folders, name, expectedSize: { _ in try? Data(contentsOf: file).count }) else {
            Issue.record("the stored page has no record")
            return
        }
        let forged = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "first story", with: "FORGED ITEM").utf8)
        try storage.prepare(forged, folders: folders, name: name, record: record).commit()
        down.set(true)
        let terminal = WatchingTerminal(indexPath: indexPath)
        let last = await browse(try loader(server), terminal) { $0.description.contains("page 1 failed") }
        #expect(last != nil && last?.description.contains("FORGED ITEM") == false, "\(terminal.inner.lastFrame?.description ?? "")")
        // The record vouched for it until the index was read.
        #expect(terminal.inner.frames.first?.description.contains("FORGED ITEM") == true)
    }

    @Test func aFileWithoutARecordIsTrustedOnlyByTheIndex() async throws {
        let server = try server()
        defer { cleanUp(server) }
        try await storePage(server)
        // The same bytes under a new inode, without a record: the index's row names another file.
        let file = try loader(server).store.bodyURL(1)
        // (Written beside it and renamed over it, so the new file cannot reuse the old one's inode.)
        let beside = file.deletingLastPathComponent().appendingPathComponent("copy")
        try Data(contentsOf: file).write(to: beside)
        #expect(rename(beside.path, file.path) == 0)
        #expect(try loader(server).peekCachedPage(1) == nil)
        down.set(true)
        let terminal = WatchingTerminal(indexPath: indexPath)
        let last = await browse(try loader(server), terminal) { $0.description.contains("page 1 failed") }
        #expect(last != nil, "\(terminal.inner.lastFrame?.description ?? "")")
        #expect(terminal.inner.frames.allSatisfy { !$0.description.contains("first story") })
    }
}

/// An in-memory terminal that notes whether the process holds `indexPath` open when the first frame
/// is drawn, and when the loop first waits for a key after it.
final class WatchingTerminal: TerminalBackend, Sendable {
    let inner = InMemoryTerminal(size: Size(width: 80, height: 12))
    let indexPath: String
    let openAtFirstFrame = LockedValue<Bool?>(nil)
    let openAtFirstKeyWait = LockedValue<Bool?>(nil)

    init(indexPath: String) { self.indexPath = indexPath }

    var size: Size { inner.size }

    func draw(_ buffer: Buffer) {
        if openAtFirstFrame.get() == nil { openAtFirstFrame.set(Self.isOpen(indexPath)) }
        inner.draw(buffer)
    }

    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        if openAtFirstKeyWait.get() == nil { openAtFirstKeyWait.set(Self.isOpen(indexPath)) }
        return inner.nextEvent(timeoutMilliseconds: timeoutMilliseconds)
    }

    func takeQuitSignal() -> Int32? { inner.takeQuitSignal() }
    func restore() { inner.restore() }

    /// Whether a descriptor of this process is open on `path` (`/proc/self/fd`).
    static func isOpen(_ path: String) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target }
    }
}
