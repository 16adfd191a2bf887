import DemoServer
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `riffle dump` on a disk that fills up: every page that arrives is printed, and standard error
/// says once, in words, why pages are not kept.
@Suite("riffle dump: the data first")
struct DumpStorageTests {
    /// Pages 1 and 2 are small, pages 3 and 4 two megabytes: over the file size limit below.
    static func server() throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let padding = String(repeating: "z", count: page <= 2 ? 100 : 2 << 20)
            return .json(#"{"items": [{"id": \#(page), "title": "page \#(page)", "pad": "\#(padding)"}]}"#)
        }
    }

    /// `sh` on PATH (POSIX: every machine has one).
    static func shell() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard let folder = path.split(separator: ":").first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/sh") }) else {
            throw Spawn.Failure(description: "sh is not on PATH (\(path))")
        }
        return "\(folder)/sh"
    }

    /// Runs riffle with a file size limit of 512 KB or more (the shell's `ulimit -f` unit), SIGXFSZ
    /// ignored: a write past it fails as on a full disk, and the process goes on.
    static func runOnAFullDisk(_ arguments: [String], blocks: Int = 1024) async throws -> Spawn.Result {
        let script = "trap '' XFSZ; ulimit -f \(blocks) || exit 99; exec \"$0\" \"$@\""
        return try await Spawn.run([try shell(), "-c", script, RiffleBinary.url.path] + arguments, environment: ProcessInfo.processInfo.environment)
    }

    @Test func pagesThatCannotBeStoredArePrintedWithOneWarning() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let template = server.baseURL.absoluteString + "/feed?page={page}"

        let result = try await Self.runOnAFullDisk(["dump", template, "--pages", "1-4", "--fields", "title", "--cache-dir", cache.path])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (1...4).map { "{\"title\":\"page \($0)\"}\n" }.joined())
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("riffle: warning: could not store in the cache (") == true, "\(result.stderr)")
        // Pages 3 and 4 are fetched at once: either may be the first that does not fit.
        #expect(lines.first.map { $0.contains("/feed_3.json: File too large); ") || $0.contains("/feed_4.json: File too large); ") } == true,
                "\(result.stderr)")
        #expect(lines.first?.hasSuffix("); what arrived is shown but not kept") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("Domain"))

        // What fitted is on disk; the rest is not, and says so.
        let offline = try await RiffleBinary.run(["dump", template, "--pages", "1-4", "--fields", "title", "--offline", "--cache-dir", cache.path])
        #expect(offline.stdout == (1...2).map { "{\"title\":\"page \($0)\"}\n" }.joined())
        #expect(offline.stderr == "riffle: page 3: not cached\nriffle: page 4: not cached\n")
    }

    @Test func aCacheThatCannotBeMadeOnAFullDiskSaysWhyNotAnotherVersion() async throws {
        // Given a new cache folder where not even the index fits (16 KB files).
        let server = try Self.server()
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let result = try await Self.runOnAFullDisk(["dump", server.baseURL.absoluteString + "/feed?page={page}", "--fields", "title",
                                                    "--cache-dir", cache.path], blocks: 16)

        // Then the page is printed, and the warning gives the write's failure, not an index of another version.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"title\":\"page 1\"}\n")
        let warning = try #require(result.stderr.split(separator: "\n").first { $0.contains("could not store in the cache") }, "\(result.stderr)")
        #expect(warning.contains("index.sqlite: input/output error"), "\(warning)")
        #expect(!result.stderr.contains("another Riffle version") && !result.stderr.contains("read-only"), "\(result.stderr)")
    }

    @Test func withTimingsTheWarningIsAJSONLine() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let result = try await Self.runOnAFullDisk(["dump", server.baseURL.absoluteString + "/feed?page={page}", "--pages", "3-4",
                                              "--fields", "title", "--timings", "--cache-dir", cache.path])

        #expect(result.status == 0, "\(result.stderr)")
        let lines = try DumpFixture.objects(result.stderr)
        #expect(lines.filter { $0["warning"] != nil }.count == 1, "\(result.stderr)")
        #expect(lines.filter { $0["page"] != nil }.count == 2)
        #expect((lines.first?["warning"] as? String)?.contains("File too large") == true, "\(result.stderr)")
    }

    @Test func anOutputThatCannotBeWrittenIsOneLineNotACrash() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        // Page 3's two megabytes of output do not fit under the limit.
        let result = try await Self.runOnAFullDisk(["dump", server.baseURL.absoluteString + "/feed?page={page}", "--pages", "3",
                                              "--cache-dir", cache.path])

        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("riffle: cannot write the output: File too large\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Domain") && !result.stderr.contains("Fatal error"))
    }
}
