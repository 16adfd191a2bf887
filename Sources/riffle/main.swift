import Foundation
import RiffleKit

// Standard error is where one-line failures go; standard output belongs to the screen.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("riffle: \(message)\n".utf8))
    exit(status)
}

let arguments: Arguments
do {
    arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error) (see riffle --help)", status: 2)
}

switch arguments.command {
case .help:
    print(Usage.text)
case .version:
    print("riffle \(Usage.version)")
case .browse(let feedArgument):
    exit(BrowseCommand.run(feedArgument: feedArgument, arguments: arguments))
}
