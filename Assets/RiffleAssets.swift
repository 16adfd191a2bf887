import Foundation

/// Riffle's data files (the demo feed, presets and themes under `Assets/`), compiled into the binary
/// by the `EmbedAssets` build-tool plugin: an installed `riffle` needs no file beside it, and
/// nothing is looked up on disk. The files in `Assets/` stay the source; a build picks up a change.
///
/// ```swift
/// let presets = RiffleAssets.data("presets/presets.json")   // the bytes of Assets/presets/presets.json
/// ```
public enum RiffleAssets {
    /// The bytes of the file at `path` under `Assets/` (such as `themes/dark.json`), or nil when no
    /// such file was embedded.
    public static func data(_ path: String) -> Data? {
        guard let text = EmbeddedAssets.file(path) else { return nil }
        // Static storage lives as long as the process: no copy.
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: text.utf8Start), count: text.utf8CodeUnitCount,
                    deallocator: .none)
    }

    /// The names (without `.json`) of the files embedded from `folder`, sorted: `names(in: "themes")`.
    public static func names(in folder: String) -> [String] {
        EmbeddedAssets.paths.filter { $0.hasPrefix(folder + "/") && $0.hasSuffix(".json") }
            .map { String($0.dropFirst(folder.count + 1).dropLast(5)) }.sorted()
    }
}
