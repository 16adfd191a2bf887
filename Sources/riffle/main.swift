import Foundation
import RiffleKit

// Standard error is where one-line failures go; standard output belongs to the screen or the data.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("riffle: \(message)\n".utf8))
    exit(status)
}

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
        exit(try FeedsCommand.run(arguments))
    case .dump:
        exit(try await DumpCommand.run(arguments))
    case .cache:
        exit(try await CacheCommand.run(arguments))
    }
} catch {
    fail("\(error)", status: 2)
}
