import Foundation

/// The `riffle` executable that `swift build` put beside the test bundle.
enum RiffleBinary {
    static var url: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is `<bin>/RifflePackageTests.xctest`; on macOS it is inside a bundle.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("riffle").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("riffle")
    }

    /// Runs riffle with files for its standard streams (so it is *not* on a terminal).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Spawn.Result {
        try Spawn.run([url.path] + arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// A fresh empty folder for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
