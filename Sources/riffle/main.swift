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
    case .dump:
        exit(try await DumpCommand.run(arguments))
    case .cache:
        exit(try CacheCommand.run(arguments))
    case .feeds:
        fail("'riffle \(arguments.command.rawValue)' is not available yet", status: 2)
    }
} catch {
    fail("\(error)", status: 2)
}
