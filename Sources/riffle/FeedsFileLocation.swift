import Foundation

/// Where the user's feeds file is, following the XDG base directory rules.
enum FeedsFileLocation {
    /// `$XDG_CONFIG_HOME/riffle/feeds.json`, else `~/.config/riffle/feeds.json`.
    static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        // The spec says a relative XDG path is invalid and must be ignored.
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appending(path: "riffle").appending(path: "feeds.json")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appending(path: ".config/riffle/feeds.json")
    }
}
