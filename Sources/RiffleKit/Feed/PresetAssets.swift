import Foundation

/// Finds and reads `presets.json` without `Bundle.module`, whose generated accessor traps when the binary has
/// been copied away from its build folder (as `DemoAssets` does for the demo feed).
///
/// Looks, in order: at `$RIFFLE_PRESETS` (a file); in `Riffle_RiffleKit.resources/` beside the running
/// executable (`/proc/self/exe`, symlinks resolved); beside `Bundle.main`'s bundle and its parent (xctest
/// runs); and finally in the source checkout's `Assets/`, found through `#filePath`.
public enum PresetAssets {
    /// An environment variable naming a presets file; checked first.
    public static let environmentVariable = "RIFFLE_PRESETS"
    /// The folder SwiftPM copies RiffleKit's resources into, beside the built products.
    public static let resourceBundleName = "Riffle_RiffleKit.resources"
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
        let beside = { (folder: URL) in folder.appending(path: resourceBundleName).appending(path: fileName) }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            result.append(beside(URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()))
        }
        let bundle = Bundle.main.bundleURL
        result.append(beside(bundle))
        result.append(beside(bundle.deletingLastPathComponent()))
        // This file is Sources/RiffleKit/Feed/PresetAssets.swift: four levels below the package root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        result.append(root.appending(path: "Assets").appending(path: fileName))

        var seen: Set<String> = []
        return result.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }
}
