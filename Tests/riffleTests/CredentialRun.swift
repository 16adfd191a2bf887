import Foundation
import Testing

/// Every riffle command that keeps or shows a feed's URL, run once on a feed whose URL holds a
/// credential (a password, a key): `riffle dump` of every page, the browser paging to page 2 and
/// opening the feed list, and `cache info` (text and JSON). What each printed is kept in `outputs`,
/// and `leaks` searches it and every file riffle wrote for the credential's spellings.
struct CredentialRun {
    let cache: URL
    let config: URL
    /// Where `RIFFLE_LOG` writes the requests' log, inside the cache folder.
    let logFile: String
    let environment: [String: String]
    /// What each command printed, by name.
    private(set) var outputs: [String: String] = [:]
    private(set) var dump = Spawn.Result(status: -1, stdout: "", stderr: "")
    private(set) var info = Spawn.Result(status: -1, stdout: "", stderr: "")

    init() throws {
        cache = try RiffleBinary.temporaryDirectory()
        config = try RiffleBinary.temporaryDirectory()
        logFile = cache.appending(path: "requests.log").path
        environment = ["LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_CONFIG_HOME": config.path, "RIFFLE_LOG": logFile]
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: cache)
        try? FileManager.default.removeItem(at: config)
    }

    /// Runs the commands on `url`, whose pages 1 and 2 hold items "item 1-1" and "item 2-1"; the feed
    /// list must show `listed` (the URL as riffle keeps it, cut to its column).
    mutating func run(_ url: String, listed: String, socketPrefix: String) async throws {
        dump = try await RiffleBinary.run(["dump", url, "--all", "--cache-dir", cache.path, "--timings"], environment: environment)
        outputs["dump"] = dump.stdout + dump.stderr

        let session = try TmuxSession(command: [RiffleBinary.url.path, "--cache-dir", cache.path, "--max-age", "0", url],
                                      width: 120, height: 24, environment: environment, socketPrefix: socketPrefix)
        #expect(await session.waitFor { session.screen().contains("item 1-1") }, "\(session.screen())")
        outputs["browser"] = session.screen()
        try session.send("n")
        #expect(await session.waitFor { session.screen().contains("item 2-1") }, "\(session.screen())")
        try session.send("F")
        #expect(await session.waitFor { session.screen().contains(listed) }, "the feed list shows \(listed):\n\(session.screen())")
        outputs["feed list"] = session.unwrappedScreen()
        try session.send("q")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "riffle did not exit:\n\(session.screen())")

        info = try await RiffleBinary.run(["cache", "info", "--cache-dir", cache.path], environment: environment)
        outputs["cache info"] = info.stdout + info.stderr
        let json = try await RiffleBinary.run(["cache", "info", "--json", "--cache-dir", cache.path], environment: environment)
        outputs["cache info --json"] = json.stdout + json.stderr
    }

    /// Every file under `folder`, with its bytes.
    static func files(under folder: URL) -> [(path: String, data: Data)] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { item in
            guard let file = item as? URL, (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let data = try? Data(contentsOf: file) else { return nil }
            return (file.path, data)
        }
    }

    /// Where any of `spellings` was found: each file under the cache folder, or output, that holds
    /// one, with the spellings it holds. Also checks that the indexes and the log were written, so
    /// an empty folder cannot pass.
    func leaks(of spellings: [String]) -> [String] {
        func found(in data: Data) -> [String] { spellings.filter { data.range(of: Data($0.utf8)) != nil } }
        let files = Self.files(under: cache)
        #expect(files.contains { $0.path.hasSuffix("index.sqlite") } && files.contains { $0.path.hasSuffix("reading.sqlite") })
        #expect(files.contains { $0.path == logFile })
        return files.compactMap { file in found(in: file.data).isEmpty ? nil : "\(file.path) holds \(found(in: file.data))" }
            + outputs.compactMap { name, text in
                found(in: Data(text.utf8)).isEmpty ? nil : "\(name) printed \(found(in: Data(text.utf8))):\n\(text)"
            }
    }
}
