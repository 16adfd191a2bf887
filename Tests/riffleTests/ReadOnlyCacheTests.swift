import DemoServer
import Foundation
import RiffleTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A cache folder riffle may read but not write (a read-only file system, a backup, another user's
/// folder): what it holds still answers, and nothing there changes. When the tests run as root,
/// riffle runs as another user (`setpriv`), since root writes whatever the modes say.
@Suite("riffle on a cache folder it cannot write", .serialized)
struct ReadOnlyCacheTests {
    @Test func searchReadsAReadingLogItCannotWrite() async throws {
        let server = try HTTPServer { _ in
            .json(#"[{"id": "z1", "title": "zeppelin over the bay", "url": "https://example.com/z1"}, {"id": "z2", "title": "a quiet harbour"}]"#)
        }
        defer { server.stop() }
        let cache = FolderModes.scratch("riffle-ro-log")
        defer { FolderModes.remove(cache) }
        // Given a page dumped and searched once (which files it in the reading log)
        let template = server.baseURL.absoluteString + "/feed?page={page}"
        let dump = try await RiffleBinary.run(["dump", template, "--pages", "1", "--format", "tsv", "--cache-dir", cache.path])
        #expect(dump.status == 0, "\(dump.stderr)")
        let first = try await RiffleBinary.run(["search", "zeppelin", "--format", "tsv", "--cache-dir", cache.path])
        #expect(first.stdout.contains("zeppelin over the bay"), "\(first.stdout) \(first.stderr)")
        // When the folder can no longer be written
        FolderModes.setMode(cache, folders: 0o555, files: 0o444)
        let before = FolderModes.listing(cache)
        let search = try await Spawn.run(try Self.asAnotherUser() + [RiffleBinary.url.path, "search", "zeppelin", "--format", "tsv", "--cache-dir", cache.path],
                                         environment: ProcessInfo.processInfo.environment)
        // Then search still finds it (before: "reading log …/reading.sqlite: cannot be opened", exit 1)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("zeppelin over the bay"), "\(search.stdout) \(search.stderr)")
        #expect(FolderModes.listing(cache) == before, "nothing written")
    }

    @Test func theBrowserShowsWhatWasSeenInAReadingLogItCannotWrite() async throws {
        let server = try HTTPServer { _ in
            .json(#"[{"id": "z1", "title": "zeppelin over the bay"}, {"id": "z2", "title": "a quiet harbour"}, {"id": "z3", "title": "gulls"}]"#,
                  headers: [("Cache-Control", "max-age=3600")])
        }
        defer { server.stop() }
        let cache = FolderModes.scratch("riffle-ro-seen")
        defer { FolderModes.remove(cache) }
        let template = server.baseURL.absoluteString + "/feed?page={page}"
        let environment = ["LANG": "C.UTF-8", "TERM": "xterm-256color"]
        // Given the first item marked seen in the browser
        var session = try TmuxSession(command: [RiffleBinary.url.path, template, "--cache-dir", cache.path], width: 120, height: 12,
                                      environment: environment, socketPrefix: "ro-seen")
        #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains("3 new") }, "\(session.screen())")
        try session.send("m")
        #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains("2 new") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor(timeout: patienceInterval) { session.exitStatus() == 0 }, "\(session.screen())")
        // When the folder can no longer be written
        FolderModes.setMode(cache, folders: 0o555, files: 0o444)
        let before = FolderModes.listing(cache)
        session = try TmuxSession(command: try Self.asAnotherUser() + [RiffleBinary.url.path, template, "--cache-dir", cache.path], width: 120,
                                  height: 12, environment: environment, socketPrefix: "ro-seen")
        // Then the browser still says what was seen (before: nothing, its first write to the log failed
        // before the seen marks were read), and why marks are not kept
        #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains("2 new") }, "\(session.screen())")
        #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains("read-only") }, "\(session.screen())")
        // And a page fetched again (r) is shown, and a toast says it could not be kept (before: the
        // cache's line went nowhere in the browser, only riffle dump printed it)
        try session.send("r")
        #expect(await session.waitFor(timeout: patienceInterval) { session.screen().contains("could not store in the cache") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor(timeout: patienceInterval) { session.exitStatus() == 0 }, "\(session.screen())")
        #expect(FolderModes.listing(cache) == before, "nothing written")
    }

    /// The argument vector's start that runs a program as another user when the tests run as root
    /// (nobody, through util-linux's `setpriv`), else nothing.
    static func asAnotherUser() throws -> [String] {
        guard geteuid() == 0 else { return [] }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/setpriv") {
            return ["\(folder)/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        throw Spawn.Failure(description: "setpriv is not on PATH (\(path)): run as root, this test needs it to run riffle as another user (apt-get install util-linux)")
    }
}
