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

    /// The cache folder the command line names (or the default one), checked: it is a folder, or
    /// (with `create`) it has been made, mode 0700. The message says what is wrong with the path,
    /// in words. An existing folder is fine even when it cannot be written: pages already there can
    /// still be read.
    static func checked(_ arguments: Arguments, create: Bool) throws(Arguments.UsageError) -> URL {
        let folder = resolve(arguments.cacheDirectory)
        if let problem = problem(with: folder, create: create) {
            throw .init(arguments.cacheDirectory != nil ? "option --cache-dir: \(problem)" : "cache folder: \(problem)")
        }
        return folder
    }

    /// What stops `folder` from being the cache, or nil.
    static func problem(with folder: URL, create: Bool) -> String? {
        var missing: [URL] = []
        var current = folder
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: current.path, isDirectory: &isFolder) {
            missing.append(current)
            guard current.path != "/" else { break }
            current = current.deletingLastPathComponent()
        }
        guard isFolder.boolValue else {
            return missing.isEmpty ? "\(folder.path) is a file, not a folder"
                : "cannot make \(folder.path): \(current.path) is a file, not a folder"
        }
        guard create else { return nil }
        for path in missing.reversed().map(\.path) where mkdir(path, 0o700) != 0 && errno != EEXIST {
            return "cannot make \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
