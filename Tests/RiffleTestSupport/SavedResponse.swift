import Foundation

/// The whole responses of real APIs kept with RiffleKit's tests (`Tests/RiffleKitTests/Fixtures`, where
/// most of their readers are), for a test of another module that needs one of those shapes. Read in
/// place from the checkout the tests were built from, so no response is kept twice.
package enum SavedResponse {
    package struct Missing: Error, CustomStringConvertible {
        package var description: String
    }

    /// The bytes of `Fixtures/<name>` (with its extension).
    package static func data(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RiffleKitTests/Fixtures/\(name)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "no saved response at \(url.path)")
        }
        return data
    }
}
