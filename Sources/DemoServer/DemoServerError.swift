import Glibc

/// Everything that can go wrong when starting the demo server or loading its content.
public enum DemoServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket call failed; carries the call's name and `errno`.
    case socket(String, Int32)
    /// The demo content exists but could not be read or decoded.
    case invalidAssets(path: String, reason: String)

    public var description: String {
        switch self {
        case let .socket(call, code):
            return "demo server: \(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .invalidAssets(path, reason):
            // One line, whatever the decoder's text holds.
            let line = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
            return "demo feed \(path) is unreadable: \(line)"
        }
    }
}
