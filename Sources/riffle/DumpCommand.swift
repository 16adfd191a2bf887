import Foundation
import RiffleKit

/// `riffle dump FEED`: prints a feed's items for scripts, every page through `PageLoader` and the
/// cache, in page order whatever order the pages arrive in.
enum DumpCommand {
    /// What became of one page.
    struct Outcome {
        var number: Int
        var result: Result<Page, RiffleError>
        /// From asking the loader until the items were in memory.
        var duration: Duration
    }

    /// Runs the command; returns 0 when every page arrived, 1 when some failed.
    /// - Parameter started: the earliest moment the process recorded (see DECISIONS.md).
    static func run(_ arguments: Arguments, started: ContinuousClock.Instant = .now) async throws(Arguments.UsageError) -> Int32 {
        let options = try DumpOptions(arguments)
        let cacheDirectory = try CacheLocation.checked(arguments, create: true)
        let warnings = DumpWarnings()
        var configuration = PageLoader.Configuration()
        configuration.maxConcurrentFetches = options.concurrency
        // Pages that cannot be stored are still printed; the cache says why once, and so does dump.
        configuration.log = { warnings.add($0) }
        let loader = PageLoader(feed: options.feed, cacheDirectory: cacheDirectory,
                                client: Network.client(for: options.feed), configuration: configuration)
        let report = DumpReport(timings: options.timings, progress: isatty(STDERR_FILENO) == 1, total: options.pages.count,
                                warnings: warnings)
        var output = DumpOutput(format: options.format, fields: options.fields)
        write(output.header)

        let firstRequest = ContinuousClock.now
        var failures = 0
        // At most `window` pages are asked for and not yet printed: pages read from disk arrive far
        // faster than they print, and 400 of them held at once took 80 MB.
        let window = max(2 * options.concurrency, 8)
        await withTaskGroup(of: Outcome.self) { group in
            var unasked = options.pages.makeIterator()
            func askNext() {
                guard let number = unasked.next() else { return }
                group.addTask {
                    let start = ContinuousClock.now
                    let result: Result<Page, RiffleError>
                    do throws(RiffleError) {
                        result = .success(try await MaxAge.load(number, policy: options.policy, maxAge: options.maxAge, loader: loader))
                    } catch {
                        result = .failure(error)
                    }
                    return Outcome(number: number, result: result, duration: start.duration(to: .now))
                }
            }
            for _ in 0..<window { askNext() }
            // Pages finish in any order; each is printed as soon as every page before it has been.
            var finished: [Int: Outcome] = [:]
            var next = options.pages.lowerBound
            for await outcome in group {
                finished[outcome.number] = outcome
                while let ready = finished.removeValue(forKey: next) {
                    switch ready.result {
                    case .success(let page):
                        var text = ""
                        for item in page.items { text += output.text(for: item) }
                        write(text)
                    case .failure:
                        failures += 1
                    }
                    report.page(ready)
                    next += 1
                    askNext()
                }
            }
        }
        write(output.footer())
        report.summary(pages: options.pages.count, errors: failures,
                       initial: started.duration(to: firstRequest), total: started.duration(to: .now))
        return failures == 0 ? 0 : 1
    }

    /// Writes to standard output; when that fails (a full disk under a redirection, a closed pipe)
    /// riffle stops with one line saying why, rather than trapping in Foundation.
    private static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                guard errno == EINTR else {
                    StandardError.message("cannot write the output: \(String(cString: strerror(errno)))")
                    exit(1)
                }
                continue
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
