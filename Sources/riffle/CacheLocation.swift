import Foundation

/// Where Riffle keeps its files, following the XDG base directory rules.
enum CacheLocation {
    /// `--cache-dir`, else `$XDG_CACHE_HOME/riffle`, else `~/.cache/riffle`.
    static func resolve(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("riffle", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/riffle", isDirectory: true)
    }
}
