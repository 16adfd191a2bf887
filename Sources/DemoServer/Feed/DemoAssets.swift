import Foundation

/// Finds the demo content without `Bundle.module`, whose generated accessor traps when the binary has been
/// copied away from its build folder.
///
/// Looks, in order: in `$RIFFLE_DEMO_ASSETS`; in `Riffle_DemoServer.resources/demo` beside the running
/// executable (`/proc/self/exe`, symlinks resolved); beside `Bundle.main`'s bundle and its parent
/// (xctest runs); and finally in the source checkout's `Assets/demo`, found through `#filePath`.
public enum DemoAssets {
    /// An environment variable naming a folder that holds `items.json`; checked first.
    public static let environmentVariable = "RIFFLE_DEMO_ASSETS"
    /// The folder SwiftPM copies the `demo` resource folder into, beside the built products.
    public static let resourceBundleName = "Riffle_DemoServer.resources"
    /// The file a candidate folder must contain to count.
    public static let marker = "items.json"

    /// The first candidate folder that contains `items.json`.
    /// - Throws: `DemoServerError.assetsNotFound` listing every place it looked.
    public static func directory() throws(DemoServerError) -> URL {
        try firstExisting(candidates())
    }

    /// Every folder `directory()` checks, in order.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var result: [URL] = []
        if let override = environment[environmentVariable], !override.isEmpty {
            result.append(URL(fileURLWithPath: override, isDirectory: true))
        }
        let beside = { (folder: URL) in folder.appending(path: resourceBundleName).appending(path: "demo") }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
            result.append(beside(resolved.deletingLastPathComponent()))
        }
        let bundle = Bundle.main.bundleURL
        result.append(beside(bundle))
        result.append(beside(bundle.deletingLastPathComponent()))
        // This file is Sources/DemoServer/Feed/DemoAssets.swift: four levels below the package root.
        // #filePath here, not as a default argument, which would name the caller's file instead.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        result.append(root.appending(path: "Assets").appending(path: "demo"))

        var seen: Set<String> = []
        return result.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The first of `candidates` holding `items.json`.
    static func firstExisting(_ candidates: [URL]) throws(DemoServerError) -> URL {
        for folder in candidates where FileManager.default.fileExists(atPath: folder.appending(path: marker).path) {
            return folder
        }
        throw .assetsNotFound(searched: candidates.map(\.path))
    }
}
