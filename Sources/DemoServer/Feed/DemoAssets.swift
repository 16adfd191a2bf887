import Foundation
import RiffleAssets

/// Finds the demo content (`Assets/demo/items.json`) through `RiffleAssets`, which never traps.
public enum DemoAssets {
    /// The file a candidate folder must contain to count.
    public static let marker = "items.json"

    /// The first candidate folder that contains `items.json`.
    /// - Throws: `DemoServerError.assetsNotFound` listing every place it looked.
    public static func directory() throws(DemoServerError) -> URL {
        do {
            return try RiffleAssets.directory("demo", marker: marker)
        } catch {
            throw .assetsNotFound(searched: error.searched)
        }
    }

    /// Every folder `directory()` checks, in order.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        RiffleAssets.candidates("demo", environment: environment)
    }
}
