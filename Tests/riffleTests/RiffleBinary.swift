import Foundation
import RiffleTestSupport

/// The `riffle` executable that `swift build` put beside the test bundle.
enum RiffleBinary {
    static var url: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.standardizedFileURL.deletingLastPathComponent()
        // On Linux the test runner is `<bin>/RifflePackageTests.xctest`; on macOS it is inside a bundle.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("riffle").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("riffle")
    }

    /// Runs riffle with files for its standard streams (so it is *not* on a terminal), on a thread of
    /// its own (see `Spawn.run`).
    /// - Parameter stdout: where its standard output goes instead (see `Spawn.run`).
    static func run(_ arguments: [String], environment: [String: String] = [:], stdout: String? = nil) async throws -> Spawn.Result {
        try await Spawn.run([url.path] + arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                            stdout: stdout)
    }

    /// `riffle dump template` into `cache`, printing each item's id alone (TSV), with `extra` options.
    static func dumpIDs(_ template: String, cache: URL, _ extra: [String]) async throws -> Spawn.Result {
        try await run(["dump", template, "--cache-dir", cache.path, "--format", "tsv", "--fields", "id"] + extra)
    }

    /// A loopback port that refuses every connection while the tests run: a socket bound to it that
    /// never listens (and is never closed, so nothing else can take the port). Never a guessed
    /// "closed" port, nor one closed again that another test might bind.
    static var refusingPort: Int? { refusing?.port }
    private static let refusing = try? RefusingPort()

    /// A URL template on `refusingPort`: a request to it is refused at once.
    static func refusingTemplate() throws -> String {
        guard let port = refusingPort else { throw Spawn.Failure(description: "could not bind a loopback port") }
        return "http://127.0.0.1:\(port)/{page}"
    }

    /// A named pipe for riffle's standard output (`run(stdout:)`), already open for reading without
    /// waiting for a writer, so riffle's open for writing succeeds at once. The caller unlinks `path`
    /// and closes `reader` (closing it early is a reader that went away).
    static func outputPipe() throws -> (path: String, reader: Int32) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-fifo-\(UUID().uuidString)").path
        guard mkfifo(path, 0o600) == 0 else { throw Spawn.Failure(description: "mkfifo \(path): \(String(cString: strerror(errno)))") }
        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else {
            unlink(path)
            throw Spawn.Failure(description: "open \(path): \(String(cString: strerror(errno)))")
        }
        return (path, reader)
    }

    /// A fresh empty folder for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
