import Foundation
import RiffleKit

/// Ends the process with a one-line message on standard error (standard output belongs to the
/// screen or the data). `json`: the line is `{"error": ...}` (`riffle dump --timings`).
func fail(_ message: String, status: Int32, json: Bool = false) -> Never {
    StandardError.message(message, json: json)
    exit(status)
}

// No `await` here: it would make `main` async, and the runtime would end the main thread with a
// forced unwind that keeps the binary's unwind tables resident (`waitForCommand`); .ci/check-release
// fails if `main` is async again.
// Before any thread starts: GnuTLS, loaded with libcurl and never used, stays unset-up (GnuTLSImplicitInit).
_ = GnuTLSImplicitInit.skipped
// With --timings standard error is JSON lines only, usage errors included.
let timings = CommandLine.arguments.dropFirst().contains("--timings")
do {
    let arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
    switch arguments.command {
    case .help:
        print(Usage.text)
    case .version:
        print("riffle \(Usage.version)")
    case .browse:
        exit(try BrowseCommand.run(arguments))
    case .feeds:
        exit(try waitForCommand { () async throws(Arguments.UsageError) in try await FeedsCommand.run(arguments) })
    case .add:
        exit(try AddCommand.run(arguments))
    case .search:
        exit(try waitForCommand { () async throws(Arguments.UsageError) in try await SearchCommand.run(arguments) })
    case .dump:
        exit(try waitForCommand { () async throws(Arguments.UsageError) in try await DumpCommand.run(arguments) })
    case .inspect:
        exit(try waitForCommand { () async throws(Arguments.UsageError) in try await InspectCommand.run(arguments) })
    case .cache:
        exit(try waitForCommand { () async throws(Arguments.UsageError) in try await CacheCommand.run(arguments) })
    }
} catch {
    fail("\(error)", status: 2, json: timings)
}
