import Foundation

/// Opens a link with `$BROWSER`, else `xdg-open`: started from an argument vector (never through a
/// shell, so a URL cannot inject a command), detached from the screen.
enum LinkOpener {
    enum Failure: Error, CustomStringConvertible {
        case noOpener
        case failed(String)
        var description: String {
            switch self {
            case .noOpener: "no browser to open links: set $BROWSER or install xdg-utils"
            case .failed(let why): "could not open the link: \(why)"
            }
        }
    }

    @discardableResult
    static func open(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Failure? {
        guard let program = opener(environment: environment) else { return .noOpener }
        let process = Process()
        process.executableURL = program
        process.arguments = [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return .failed(error.localizedDescription) }
        return nil
    }

    /// The first of `$BROWSER` (its first word, a program name or path) and `xdg-open` found on `$PATH`.
    static func opener(environment: [String: String]) -> URL? {
        let candidates = [environment["BROWSER"]?.split(separator: ":").first.map(String.init), "xdg-open"].compactMap { $0 }
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for candidate in candidates where !candidate.isEmpty {
            if candidate.contains("/") {
                if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
                continue
            }
            for directory in path {
                let full = "\(directory)/\(candidate)"
                if FileManager.default.isExecutableFile(atPath: full) { return URL(fileURLWithPath: full) }
            }
        }
        return nil
    }
}
