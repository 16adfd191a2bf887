import CNcursesw
import RiffleTUI

/// Colours for each `Style.Role`, on the terminal's default background (-1).
package struct Theme: Sendable, Equatable {
    /// Foreground colour (0-7, or -1 for the terminal's default) and attributes per role.
    package var roles: [Style.Role: (color: Int16, bold: Bool, dim: Bool, reverse: Bool)]

    package static func == (lhs: Theme, rhs: Theme) -> Bool {
        lhs.roles.keys == rhs.roles.keys && lhs.roles.allSatisfy { key, value in
            let other = rhs.roles[key]!
            return other.color == value.color && other.bold == value.bold && other.dim == value.dim && other.reverse == value.reverse
        }
    }

    package init(roles: [Style.Role: (color: Int16, bold: Bool, dim: Bool, reverse: Bool)]) { self.roles = roles }

    /// Attributes only, no colours: what `NcursesScreen` falls back to without colour support.
    package static let plain = Theme(roles: [
        .header: (-1, true, false, false), .selection: (-1, true, false, true), .dim: (-1, false, true, false),
        .status: (-1, false, false, true), .toast: (-1, true, false, true), .error: (-1, true, false, true),
    ])
}

/// Maps styles to ncurses attributes and colour pairs (one pair per role, set up once).
struct Palette {
    private var entries: [Style.Role: (attrs: attr_t, pair: Int16)] = [:]

    init(theme: Theme, colors: Bool) {
        var nextPair: Int16 = 1
        for (role, spec) in theme.roles {
            var attrs = cn_a_normal()
            if spec.bold { attrs |= cn_a_bold() }
            if spec.dim { attrs |= cn_a_dim() }
            if spec.reverse { attrs |= cn_a_reverse() }
            var pair: Int16 = 0
            if colors && spec.color >= 0 {
                init_pair(nextPair, spec.color, -1)
                pair = nextPair
                nextPair += 1
            }
            entries[role] = (attrs, pair)
        }
    }

    func attributes(for style: Style) -> (attr_t, Int16) {
        var (attrs, pair) = entries[style.role] ?? (cn_a_normal(), 0)
        if style.bold { attrs |= cn_a_bold() }
        if style.dim { attrs |= cn_a_dim() }
        if style.reverse { attrs |= cn_a_reverse() }
        if style.underline { attrs |= cn_a_underline() }
        if style.italic { attrs |= cn_a_italic() }
        return (attrs, pair)
    }
}
