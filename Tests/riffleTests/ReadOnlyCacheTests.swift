import DemoServer
import Foundation
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
        let cache = Self.folderOthersCanReach().appendingPathComponent("riffle-ro-log-\(UUID().uuidString)")
        defer {
            Self.setMode(cache, folders: 0o700, files: 0o600)
            try? FileManager.default.removeItem(at: cache)
        }
        // Given a page dumped and searched once (which files it in the reading log)
        let template = server.baseURL.absoluteString + "/feed?page={page}"
        let dump = try await RiffleBinary.run(["dump", template, "--pages", "1", "--format", "tsv", "--cache-dir", cache.path])
        #expect(dump.status == 0, "\(dump.stderr)")
        let first = try await RiffleBinary.run(["search", "zeppelin", "--format", "tsv", "--cache-dir", cache.path])
        #expect(first.stdout.contains("zeppelin over the bay"), "\(first.stdout) \(first.stderr)")
        // When the folder can no longer be written
        Self.setMode(cache, folders: 0o555, files: 0o444)
        let before = Self.listing(cache)
        let search = try await Spawn.run(try Self.asAnotherUser() + [RiffleBinary.url.path, "search", "zeppelin", "--format", "tsv", "--cache-dir", cache.path],
                                         environment: ProcessInfo.processInfo.environment)
        // Then search still finds it (before: "reading log …/reading.sqlite: cannot be opened", exit 1)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("zeppelin over the bay"), "\(search.stdout) \(search.stderr)")
        #expect(Self.listing(cache) == before, "nothing written")
    }

    @Test func theBrowserShowsWhatWasSeenInAReadingLogItCannotWrite() async throws {
        let server = try HTTPServer { _ in
            .json(#"[{"id": "z1", "title": "zeppelin over the bay"}, {"id": "z2", "title": "a quiet harbour"}, {"id": "z3", "title": "gulls"}]"#,
                  headers: [("Cache-Control", "max-age=3600")])
        }
        defer { server.stop() }
        let cache = Self.folderOthersCanReach().appendingPathComponent("riffle-ro-seen-\(UUID().uuidString)")
        defer {
            Self.setMode(cache, folders: 0o700, files: 0o600)
            try? FileManager.default.removeItem(at: cache)
        }
        let template = server.baseURL.absoluteString + "/feed?page={page}"
        let environment = ["LANG": "C.UTF-8", "TERM": "xterm-256color"]
        // Given the first item marked seen in the browser
        var session = try TmuxSession(command: [RiffleBinary.url.path, template, "--cache-dir", cache.path], width: 120, height: 12,
                                      environment: environment, socketPrefix: "ro-seen")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("3 new") }, "\(session.screen())")
        try session.send("m")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("2 new") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor(timeout: Self.patience) { session.exitStatus() == 0 }, "\(session.screen())")
        // When the folder can no longer be written
        Self.setMode(cache, folders: 0o555, files: 0o444)
        let before = Self.listing(cache)
        session = try TmuxSession(command: try Self.asAnotherUser() + [RiffleBinary.url.path, template, "--cache-dir", cache.path], width: 120,
                                  height: 12, environment: environment, socketPrefix: "ro-seen")
        // Then the browser still says what was seen (before: nothing, its first write to the log failed
        // before the seen marks were read), and why marks are not kept
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("2 new") }, "\(session.screen())")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("read-only") }, "\(session.screen())")
        // And a page fetched again (r) is shown, and a toast says it could not be kept (before: the
        // cache's line went nowhere in the browser, only riffle dump printed it)
        try session.send("r")
        #expect(await session.waitFor(timeout: Self.patience) { session.screen().contains("could not store in the cache") }, "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor(timeout: Self.patience) { session.exitStatus() == 0 }, "\(session.screen())")
        #expect(Self.listing(cache) == before, "nothing written")
    }

    /// A wait that succeeds returns at once; the suite may hold the machine's two cores for long.
    static let patience: TimeInterval = 120

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

    /// The temporary directory when every folder above it lets other users through, else /tmp.
    static func folderOthersCanReach() -> URL {
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL
        var folder = temporary
        while folder.path != "/" {
            var info = stat()
            guard stat(folder.path, &info) == 0, info.st_mode & 0o001 != 0 else { return URL(fileURLWithPath: "/tmp") }
            folder.deleteLastPathComponent()
        }
        return temporary
    }

    /// Every file and folder under `url` with its size.
    static func listing(_ url: URL) -> [String] {
        let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey])
        return (walker?.compactMap { ($0 as? URL).map { "\($0.path) \((try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? -1)" } } ?? []).sorted()
    }

    static func setMode(_ url: URL, folders: mode_t, files: mode_t) {
        chmod(url.path, folders)
        let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey])
        while let item = walker?.nextObject() as? URL {
            let isFolder = (try? item.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            chmod(item.path, isFolder ? folders : files)
        }
    }
}
