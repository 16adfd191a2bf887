import Foundation
import RiffleKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The work of the child processes that RiffleKit's tests start: real processes sharing a cache
/// folder (threads with their own SQLite connections would not exercise the file locks between
/// processes), or running with a process-wide setting (a file size limit, another user) that must not
/// touch the other tests.
///
/// `riffle-test-child MODE ARGUMENTS...`; each check that fails prints one `FAIL:` line, and the exit
/// status is 0 only when every check passed (2 for a usage error). With no arguments it exits at once,
/// which gives a test the id of a process that has exited.
@main
struct RiffleTestChild {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = arguments.first else { exit(0) }
        let checks = Checks()
        do {
            switch (mode, arguments.count) {
            case ("cache-writer", 3): try await cacheWriter(directory: arguments[1], writer: arguments[2], checks)
            case ("page-refresher", 3): try await pageRefresher(directory: arguments[1], template: arguments[2], checks)
            case ("disk-full", 3): try await fullDisk(directory: arguments[1], template: arguments[2], checks)
            case ("disk-write", 3): try await writePages(directory: arguments[1], template: arguments[2])
            case ("disk-read-only", 3): try await readOnly(directory: arguments[1], template: arguments[2], checks)
            default:
                FileHandle.standardError.write(Data("riffle-test-child: unknown mode or arguments: \(arguments)\n".utf8))
                exit(2)
            }
        } catch {
            checks.check(false, "threw \(error)")
        }
        let failures = checks.failures
        for failure in failures { print("FAIL: \(failure)") }
        print(failures.isEmpty ? "ok \(mode)" : "\(failures.count) failed in \(mode)")
        exit(failures.isEmpty ? 0 : 1)
    }

    // MARK: Two processes writing one cache

    /// Shared with `CacheMultiProcessTests`: the cache's settings and keys.
    static let keys = 20

    static func cacheConfiguration() -> ResponseCache.Configuration {
        var configuration = ResponseCache.Configuration()
        configuration.inlineLimit = 2_000   // half the bodies inline, half in files
        configuration.memoryCountLimit = 0  // every read goes to the shared disk
        return configuration
    }

    static func request(_ key: Int) -> HTTPRequest { HTTPRequest(url: URL(string: "http://127.0.0.1:1/shared/\(key)")!) }

    /// Writes every key six times, bodies of changing sizes, signed with `writer`.
    static func cacheWriter(directory: String, writer: String, _ checks: Checks) async throws {
        let cache = ResponseCache(directory: URL(fileURLWithPath: directory), configuration: cacheConfiguration())
        for round in 0..<(keys * 6) {
            let key = round % keys
            let pad = String(repeating: writer, count: (key % 2 == 0 ? 500 : 6_000) + round)
            let body = Data(#"{"writer": "\#(writer)", "round": \#(round), "pad": "\#(pad)"}"#.utf8)
            let url = request(key).url
            _ = try await cache.response(for: request(key), policy: .reloadIgnoringCache, maxAge: 3_600, validate: { _ in }) { _ in
                HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body, url: url)
            }
        }
    }

    static let refreshRounds = 5
    static let refreshPages = 8

    /// `riffle dump --refresh` of every page, five times.
    static func pageRefresher(directory: String, template: String, _ checks: Checks) async throws {
        let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: URL(fileURLWithPath: directory), transport: CurlTransport())
        for _ in 0..<refreshRounds {
            // Both children in the same order, so they write each page at about the same moment.
            for number in 1...refreshPages {
                let page = try await loader.load(number, policy: .reloadIgnoringCache)
                checks.check(page.source == .network && page.items.count == 1, "page \(number): \(page.source), \(page.items.count) items")
            }
        }
    }

    // MARK: A full disk and a read-only cache

    /// The largest file the full-disk child may write: pages 1 and 2 fit, later ones do not.
    static let fileSizeLimit = 256 * 1024

    static func loader(directory: String, template: String,
                       clock: @escaping @Sendable () -> Date = Date.init) throws -> (PageLoader, Lines) {
        let lines = Lines()
        var configuration = PageLoader.Configuration()
        configuration.log = { line in lines.append(line) }
        let loader = PageLoader(feed: try Feed(template: template), cacheDirectory: URL(fileURLWithPath: directory),
                                transport: CurlTransport(), configuration: configuration, clock: clock)
        return (loader, lines)
    }

    /// As a full disk looks to `write`: it fails part way.
    static func fullDisk(directory: String, template: String, _ checks: Checks) async throws {
        var limit = rlimit(rlim_cur: rlim_t(fileSizeLimit), rlim_max: rlim_t(fileSizeLimit))
        checks.check(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, "setrlimit")
        signal(SIGXFSZ, SIG_IGN)  // as a full disk: the write fails, the process goes on
        let (loader, log) = try loader(directory: directory, template: template)

        for number in 1...6 {
            let page = try await loader.load(number)
            checks.check(page.source == .network && page.items.map(\.title) == ["page \(number)"], "page \(number)")
        }
        for number in 1...2 {
            let source = try await loader.load(number, policy: .returnCacheDontLoad).source
            checks.check(source == .cache, "page \(number) from \(source)")
        }
        for number in 3...6 {
            do {
                _ = try await loader.load(number, policy: .returnCacheDontLoad)
                checks.check(false, "page \(number) was stored")
            } catch {
                checks.check(error == .request(.notCached), "page \(number): \(error)")
            }
        }
        let lines = log.lines
        let warnings = lines.filter { $0.contains("could not store") }
        checks.check(warnings.count == 1, "\(lines)")
        checks.check(warnings.first?.contains("feed_3.json: File too large") == true, "\(lines)")
        checks.check(lines.allSatisfy { !$0.contains("Domain") }, "\(lines)")
        let names = try FileManager.default.contentsOfDirectory(atPath: loader.store.directory.path).sorted()
        checks.check(names == ["feed_1.json", "feed_2.json"], "no temporary file left: \(names)")
    }

    /// The one moment the read-only case's writer and reader both live at: the pages one stores are
    /// fresh for the other (the demo feed says max-age=60) however long a loaded machine takes to
    /// start the second process.
    static let readOnlyCaseNow = Date(timeIntervalSince1970: 1_700_000_000)

    static func writePages(directory: String, template: String) async throws {
        let (loader, _) = try loader(directory: directory, template: template, clock: { readOnlyCaseNow })
        for number in 1...3 { _ = try await loader.load(number) }
    }

    static func readOnly(directory: String, template: String, _ checks: Checks) async throws {
        if geteuid() == 0 {
            // Root writes anywhere: be another user, for whom the folder is read-only.
            checks.check(setgroups(0, nil) == 0 && setgid(65534) == 0 && setuid(65534) == 0, "dropping root")
        }
        let (loader, log) = try loader(directory: directory, template: template, clock: { readOnlyCaseNow })

        // `--offline` finds the pages on disk.
        for number in 1...3 {
            let page = try await loader.load(number, policy: .returnCacheDontLoad)
            checks.check(page.source == .cache && page.items.count == 30, "page \(number): \(page.source), \(page.items.count) items")
        }
        checks.check(loader.peekCachedPage(2)?.items.count == 30, "peek at page 2")
        // Pages that arrive are shown, though they cannot be kept.
        for number in 4...5 {
            let page = try await loader.load(number)
            checks.check(page.source == .network && page.items.count == 30, "page \(number): \(page.source), \(page.items.count) items")
        }
        let reloaded = try await loader.load(1, policy: .reloadIgnoringCache)
        checks.check(reloaded.source == .network && reloaded.items.count == 30, "reloaded page 1")
        let lines = log.lines
        let warnings = lines.filter { $0.contains("could not store") }
        checks.check(warnings.count == 1, "\(lines)")
        checks.check(warnings.first?.contains("read-only") == true || warnings.first?.contains("Permission denied") == true, "\(lines)")
        checks.check(lines.allSatisfy { !$0.contains("Domain") }, "\(lines)")
    }
}

/// The failed checks of a run.
final class Checks: Sendable {
    private let stored = Mutex<[String]>([])
    var failures: [String] { stored.withLock { $0 } }

    func check(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) {
        guard !condition else { return }
        let failure = "line \(line): \(message())"
        stored.withLock { $0.append(failure) }
    }
}

/// Log lines, appended from whatever thread the loader logs on.
final class Lines: Sendable {
    private let stored = Mutex<[String]>([])
    var lines: [String] { stored.withLock { $0 } }
    func append(_ line: String) { stored.withLock { $0.append(line) } }
}
