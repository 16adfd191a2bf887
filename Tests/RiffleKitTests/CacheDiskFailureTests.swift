import DemoServer
import Foundation
import RiffleTestSupport
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
        let directory = FolderModes.scratch("riffle-cache-ro")
        defer { FolderModes.remove(directory) }
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
        FolderModes.setMode(directory, folders: 0o555, files: 0o444)
        let before = FolderModes.listing(directory)

        let reader = try await Self.run("read-only", directory: directory, template: server.template)

        #expect(reader.passed("disk-read-only"), "\(CacheChildProcess.failures(reader))")
        #expect(FolderModes.listing(directory) == before, "nothing written")
        #expect(server.requestCount(page: 4) == 1 && server.requestCount(page: 1) == 2)
        _ = other
    }
}
