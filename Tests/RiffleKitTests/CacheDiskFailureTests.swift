import DemoServer
import Foundation
import RiffleStorage
import Testing
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
    /// Runs `riffle-test-child disk-MODE` on `directory` and the feed `template`.
    static func run(_ mode: String, directory: URL, template: String) async throws -> CacheChildProcess.Result {
        try await CacheChildProcess.run([["disk-" + mode, directory.path, template]])[0]
    }

    /// Small pages 1 and 2, then pages of 512 KB: over the child's file size limit (256 KB).
    static func growingServer() throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let padding = String(repeating: "z", count: page <= 2 ? 100 : 512 * 1024)
            return .json(#"{"items": [{"id": \#(page), "title": "page \#(page)", "pad": "\#(padding)"}]}"#,
                         headers: [("Cache-Control", "max-age=600")])
        }
    }

    @Test func pagesThatArriveAreReturnedWhenTheDiskFillsUp() async throws {
        let server = try Self.growingServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let child = try await Self.run("full", directory: directory, template: server.baseURL.absoluteString + "/feed?page={page}")

        #expect(child.passed("disk-full"), "\(CacheChildProcess.failures(child))")
        #expect(server.requestCount == 6)
    }

    @Test(arguments: [false, true])
    func aReadOnlyCacheStillAnswers(withItsWALOpen: Bool) async throws {
        let server = try DemoFeedServer(latency: .zero, maxAge: 3_600)
        defer { server.stop() }
        let directory = Self.folderOthersCanReach().appendingPathComponent("riffle-cache-ro-\(UUID().uuidString)")
        defer {
            Self.setMode(directory, folders: 0o700, files: 0o600)
            try? FileManager.default.removeItem(at: directory)
        }
        let writer = try await Self.run("write", directory: directory, template: server.template)
        #expect(writer.passed("disk-write"), "\(CacheChildProcess.failures(writer))")
        let index = directory.appendingPathComponent("responses/index.sqlite").path
        // Riffle keeps the index's -wal and -shm when it exits (persistent WAL); a folder copied
        // without them, or left by an older riffle, has none, and a reader that cannot create them
        // opens the index as an immutable file.
        #expect(FileManager.default.fileExists(atPath: index + "-shm"))
        let other = withItsWALOpen ? try SQLiteDatabase(path: index, access: .readWrite) : nil
        if let other { _ = try other.execute("SELECT count(*) FROM entries") } else {
            try FileManager.default.removeItem(atPath: index + "-wal")
            try FileManager.default.removeItem(atPath: index + "-shm")
        }
        Self.setMode(directory, folders: 0o555, files: 0o444)
        let before = Self.listing(directory)

        let reader = try await Self.run("read-only", directory: directory, template: server.template)

        #expect(reader.passed("disk-read-only"), "\(CacheChildProcess.failures(reader))")
        #expect(Self.listing(directory) == before, "nothing written")
        #expect(server.requestCount(page: 4) == 1 && server.requestCount(page: 1) == 2)
        _ = other
    }

    /// Where the read-only cache goes: the temporary directory when every folder above it lets other
    /// users through (the child drops to another user when run as root), else /tmp, which POSIX
    /// provides for every user. A private `TMPDIR` (`mktemp -d`, mode 0700) would hide the cache.
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
