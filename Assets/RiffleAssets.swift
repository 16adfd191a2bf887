import Foundation

/// Finds Riffle's data files (the demo feed, themes, presets) without `Bundle.module`, whose
/// generated accessor traps when the binary has been copied away from its build folder.
///
/// For a folder NAME it looks, in order: in `$RIFFLE_ASSETS/NAME`; in
/// `Riffle_RiffleAssets.resources/NAME` beside the running executable (`/proc/self/exe`, symlinks
/// resolved); and finally in the source
/// checkout's `Assets/NAME`, found through `#filePath`.
public enum RiffleAssets {
    /// An environment variable naming a folder laid out like `Assets/`; checked first.
    public static let environmentVariable = "RIFFLE_ASSETS"
    /// The folder SwiftPM copies the resource folders into, beside the built products.
    public static let resourceBundleName = "Riffle_RiffleAssets.resources"

    /// A folder of assets that could not be found; `description` is one line naming every place looked.
    public struct NotFound: Error, Sendable, Equatable, CustomStringConvertible {
        public var folder: String
        public var searched: [String]
        public var description: String { "\(folder) assets not found; looked in: \(searched.joined(separator: ", "))" }
    }

    /// The first candidate for `folder` that contains `marker`.
    public static func directory(_ folder: String, marker: String,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) throws(NotFound) -> URL {
        let places = candidates(folder, environment: environment)
        for place in places where FileManager.default.fileExists(atPath: place.appending(path: marker).path) {
            return place
        }
        throw NotFound(folder: folder, searched: places.map(\.path))
    }

    /// Every place `directory` checks for `folder`, in order.
    public static func candidates(_ folder: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var result: [URL] = []
        if let override = environment[environmentVariable], !override.isEmpty {
            result.append(URL(fileURLWithPath: override, isDirectory: true).appending(path: folder))
        }
        let beside = { (directory: URL) in directory.appending(path: resourceBundleName).appending(path: folder) }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            result.append(beside(URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()))
        }
        // No Bundle.main: on Linux the running executable (also a test runner, which SwiftPM puts
        // beside the resources) is enough, and concurrent first use of Bundle.main can stall.
        // This file is Assets/RiffleAssets.swift. #filePath here, not as a default argument, which
        // would name the caller's file instead.
        result.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: folder))
        var seen: Set<String> = []
        return result.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }
}
