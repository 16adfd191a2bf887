import Foundation
import NcursesTerminal
import RiffleAssets
import RiffleKit
import RiffleTUI

/// Reads a theme from `Assets/themes/NAME.json` (compiled into the binary, see `RiffleAssets`): per
/// role an optional colour name and bold, dim, reverse flags. Colours are drawn on the terminal's
/// default background.
enum ThemeFile {
    /// The themes there are: every file of `Assets/themes/`.
    static let names = RiffleAssets.names(in: "themes")
    static let colors: [String: Int16] = [
        "default": -1, "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
    ]

    struct Invalid: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static func load(_ name: String) throws(Invalid) -> Theme {
        let path = "themes/\(name).json"
        guard let data = RiffleAssets.data(path) else {
            throw Invalid(description: "no theme '\(name)' (themes: \(names.joined(separator: ", ")))")
        }
        return try parse(data, path: "Assets/\(path)")
    }

    static func parse(_ data: Data, path: String) throws(Invalid) -> Theme {
        let document: JSONValue
        do { document = try JSONParser.parse(data) } catch { throw Invalid(description: "theme \(path): \(error)") }
        guard let roles = document["roles"]?.objectValue else { throw Invalid(description: "theme \(path): no \"roles\" object") }
        var result: [Style.Role: (color: Int16, bold: Bool, dim: Bool, reverse: Bool)] = [:]
        for (key, spec) in roles.members {
            guard let role = Style.Role(name: key) else { throw Invalid(description: "theme \(path): unknown role '\(key)'") }
            let colorName = spec["color"]?.stringValue ?? "default"
            guard let color = colors[colorName] else {
                throw Invalid(description: "theme \(path): role '\(key)' has unknown color '\(colorName)'")
            }
            result[role] = (color, spec["bold"]?.boolValue ?? false, spec["dim"]?.boolValue ?? false, spec["reverse"]?.boolValue ?? false)
        }
        return Theme(roles: result)
    }
}

extension Style.Role {
    /// The role a theme file names. A table rather than `"\(role)"`: describing an enum case goes
    /// through runtime reflection, which cost a millisecond of start-up before the first frame.
    init?(name: String) {
        let roles: [String: Style.Role] = [
            "normal": .normal, "header": .header, "selection": .selection, "dim": .dim, "accent": .accent,
            "status": .status, "toast": .toast, "error": .error, "placeholder": .placeholder,
            "depth1": .depth1, "depth2": .depth2, "depth3": .depth3, "depth4": .depth4, "depth5": .depth5, "depth6": .depth6,
            "code": .code,
        ]
        guard let role = roles[name] else { return nil }
        self = role
    }
}
