import Glibc

/// Everything that can go wrong when starting the demo server or loading its content.
public enum DemoServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket call failed; carries the call's name and `errno`.
    case socket(String, Int32)
    /// No demo asset folder was found in any of the listed places.
    case assetsNotFound(searched: [String])
    /// The demo content exists but could not be read or decoded.
    case invalidAssets(path: String, reason: String)

    public var description: String {
        switch self {
        case let .socket(call, code):
            return "demo server: \(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .assetsNotFound(searched):
            return "demo assets not found; looked in: \(searched.joined(separator: ", "))"
        case let .invalidAssets(path, reason):
            return "demo assets at \(path) are unreadable: \(reason)"
        }
    }
}
