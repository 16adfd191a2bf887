import Foundation
import RiffleAssets

/// Finds and reads the presets, `Assets/presets/presets.json`, through `RiffleAssets` (which never
/// traps, unlike `Bundle.module` once the binary has moved). `$RIFFLE_PRESETS` names another file.
public enum PresetAssets {
    /// An environment variable naming a presets file; checked first.
    public static let environmentVariable = "RIFFLE_PRESETS"
    /// The presets file's name.
    public static let fileName = "presets.json"

    /// The presets, parsed.
    /// - Throws: `FeedCatalog.Error.unreadable` listing where it looked, or the file's own problem.
    public static func catalog(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FeedCatalog.Error) -> FeedCatalog {
        let places = candidates(environment: environment)
        guard let file = places.first(where: { FileManager.default.fileExists(atPath: $0.path) }),
              let data = FileManager.default.contents(atPath: file.path) else {
            throw .unreadable(file: fileName, reason: "not found (looked in \(places.map(\.path).joined(separator: ", ")))")
        }
        return try FeedCatalog.parse(data, file: file.path)
    }

    /// Every file `catalog()` tries, in order.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var result: [URL] = []
        if let override = environment[environmentVariable], !override.isEmpty {
            result.append(URL(fileURLWithPath: override))
        }
        result += RiffleAssets.candidates("presets", environment: environment).map { $0.appending(path: fileName) }
        return result
    }
}
