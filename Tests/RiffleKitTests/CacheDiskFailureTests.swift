import DemoServer
import Foundation
import Testing
@testable import RiffleCache
@testable import RiffleKit
#if canImport(Glibc)
import Glibc
#endif

/// The data first: pages that arrive are returned when the disk is full or the cache cannot be
/// written, and a read-only cache still answers reads. Each case runs in a child process, which may
/// limit its own file sizes (a full disk, as `write` sees it: it fails part way) or drop to another
/// user (a cache it can read but not write, even when the tests run as root).
@Suite("Cache: a full disk and a read-only cache")
struct CacheDiskFailureTests {
    static let directoryVariable = "RIFFLE_DISK_CHILD_DIR"
    static let templateVariable = "RIFFLE_DISK_CHILD_TEMPLATE"
    static let modeVariable = "RIFFLE_DISK_CHILD_MODE"
    /// The largest file the full-disk child may write: pages 1 and 2 fit, later ones do not.
    static let fileSizeLimit = 256 * 1024

    struct Child {
        var directory: String
        var template: String
        var mode: String

        static var current: Child? {
            let environment = ProcessInfo.processInfo.environment
            guard let directory = environment[directoryVariable], let template = environment[templateVariable],
                  let mode = environment[modeVariable] else { return nil }
            return Child(directory: directory, template: template, mode: mode)
        }

        func loader() throws -> (PageLoader, CacheShared<[String]>) {
            let lines = CacheShared<[String]>([])
            var configuration = PageLoader.Configuration()
            configuration.log = { line in lines.withLock { $0.append(line) } }
            let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: URL(fileURLWithPath: directory),
                                    transport: CurlTransport(), configuration: configuration)
            return (loader, lines)
        }
    }

    static func run(_ mode: String, directory: URL, template: String) async throws -> CacheChildProcess.Result {
        try await CacheChildProcess.run(filter: "diskChild", environments: [
            [directoryVariable: directory.path, templateVariable: template, modeVariable: mode],
        ])[0]
    }

    /// Small pages 1 and 2, then pages of 512 KB: over the child's file size limit.
    static func growingServer() throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let padding = String(repeating: "z", count: page <= 2 ? 100 : 512 * 1024)
            return .json(#"{"items": [{"id": \#(page), "title": "page \#(page)", "pad": "\#(padding)"}]}"#,
                         headers: [("Cache-Control", "max-age=600")])
        }
    }

    /// The children's work; does nothing unless started by a test below.
    @Test func diskChild() async throws {
        guard let child = Child.current else { return }
        switch child.mode {
        case "full": try await fullDisk(child)
        case "write": try await writePages(child)
        case "read-only": try await readOnly(child)
        default: Issue.record("unknown mode \(child.mode)")
        }
    }

    private func fullDisk(_ child: Child) async throws {
        var limit = rlimit(rlim_cur: rlim_t(Self.fileSizeLimit), rlim_max: rlim_t(Self.fileSizeLimit))
        #expect(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)
        signal(SIGXFSZ, SIG_IGN)  // as a full disk: the write fails, the process goes on
        let (loader, log) = try child.loader()

        for number in 1...6 {
            let page = try await loader.load(number)
            #expect(page.source == .network && page.items.map(\.title) == ["page \(number)"], "page \(number)")
        }

        for number in 1...2 { #expect(try await loader.load(number, policy: .returnCacheDontLoad).source == .cache) }
        for number in 3...6 {
            await #expect(throws: RiffleError.notCached) { try await loader.load(number, policy: .returnCacheDontLoad) }
        }
        let lines = log.withLock { $0 }
        let warnings = lines.filter { $0.contains("could not store") }
        #expect(warnings.count == 1, "\(lines)")
        #expect(warnings.first?.contains("feed_3.json: File too large") == true, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("Domain") }, "\(lines)")
        let folder = loader.store.directory.path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["feed_1.json", "feed_2.json"],
                "no temporary file left")
    }

    private func writePages(_ child: Child) async throws {
        let (loader, _) = try child.loader()
        for number in 1...3 { _ = try await loader.load(number) }
    }

    private func readOnly(_ child: Child) async throws {
        if geteuid() == 0 {
            // Root writes anywhere: be another user, for whom the folder is read-only.
            #expect(setgroups(0, nil) == 0 && setgid(65534) == 0 && setuid(65534) == 0)
        }
        let (loader, log) = try child.loader()

        // `--offline` finds the pages on disk.
        for number in 1...3 {
            let page = try await loader.load(number, policy: .returnCacheDontLoad)
            #expect(page.source == .cache && page.items.count == 30, "page \(number)")
        }
        #expect(loader.peekCachedPage(2)?.items.count == 30)
        // Pages that arrive are shown, though they cannot be kept.
        for number in 4...5 {
            let page = try await loader.load(number)
            #expect(page.source == .network && page.items.count == 30, "page \(number)")
        }
        let reloaded = try await loader.load(1, policy: .reloadIgnoringCache)
        #expect(reloaded.source == .network && reloaded.items.count == 30)
        let lines = log.withLock { $0 }
        let warnings = lines.filter { $0.contains("could not store") }
        #expect(warnings.count == 1, "\(lines)")
        #expect(warnings.first?.contains("read-only") == true || warnings.first?.contains("Permission denied") == true, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("Domain") }, "\(lines)")
    }

    @Test func pagesThatArriveAreReturnedWhenTheDiskFillsUp() async throws {
        let server = try Self.growingServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let child = try await Self.run("full", directory: directory, template: server.baseURL.absoluteString + "/feed?page={page}")

        #expect(child.passed("diskChild"), "\(CacheChildProcess.failures(child))")
        #expect(server.requestCount == 6)
    }

    @Test(arguments: [false, true])
    func aReadOnlyCacheStillAnswers(withItsWALOpen: Bool) async throws {
        let server = try DemoFeedServer(latency: .zero)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-ro-\(UUID().uuidString)")
        defer {
            Self.setMode(directory, folders: 0o700, files: 0o600)
            try? FileManager.default.removeItem(at: directory)
        }
        let writer = try await Self.run("write", directory: directory, template: server.template)
        #expect(writer.passed("diskChild"), "\(CacheChildProcess.failures(writer))")
        let index = directory.appendingPathComponent("responses/index.sqlite").path
        // Another riffle still running keeps the index's -wal and -shm; after the last one exits they
        // are gone, and a reader that cannot create them opens the index as an immutable file.
        let other = withItsWALOpen ? try SQLiteDatabase(path: index, access: .readWrite) : nil
        if let other { _ = try other.execute("SELECT count(*) FROM entries") }
        #expect(FileManager.default.fileExists(atPath: index + "-shm") == withItsWALOpen)
        Self.setMode(directory, folders: 0o555, files: 0o444)
        let before = Self.listing(directory)

        let reader = try await Self.run("read-only", directory: directory, template: server.template)

        #expect(reader.passed("diskChild"), "\(CacheChildProcess.failures(reader))")
        #expect(Self.listing(directory) == before, "nothing written")
        #expect(server.requestCount(page: 4) == 1 && server.requestCount(page: 1) == 2)
        _ = other
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
