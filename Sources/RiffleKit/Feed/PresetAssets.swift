import Foundation
import RiffleAssets

/// The presets: `Assets/presets/presets.json` as compiled into the binary (`RiffleAssets`), or the
/// file `$RIFFLE_PRESETS` names instead.
package enum PresetAssets {
    /// An environment variable naming a presets file to use instead of the built-in one.
    package static let environmentVariable = "RIFFLE_PRESETS"
    /// The built-in presets' path under `Assets/`.
    package static let assetPath = "presets/presets.json"

    /// The presets, parsed.
    /// - Throws: `FeedCatalog.Error.unreadable` naming the file when `$RIFFLE_PRESETS` names one that
    ///   cannot be read (a missing file is an error, never silently the built-in presets), or the
    ///   file's own problem.
    package static func catalog(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FeedCatalog.Error) -> FeedCatalog {
        if let file = environment[environmentVariable], !file.isEmpty {
            guard let data = FileManager.default.contents(atPath: file) else {
                var isFolder: ObjCBool = false
                let problem = !FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) ? "no such file"
                    : isFolder.boolValue ? "a folder, not a file" : "not readable"
                throw .unreadable(file: file, reason: "\(problem) (named by $\(environmentVariable))")
            }
            return try FeedCatalog.parse(data, file: file)
        }
        let name = "Assets/\(assetPath)"
        guard let data = RiffleAssets.data(assetPath) else { throw .unreadable(file: name, reason: "not compiled into this binary") }
        return try FeedCatalog.parse(data, file: name)
    }
}
