/// Makes remote text safe to draw: no byte of it can move the cursor, clear the screen, set the
/// clipboard or reorder the line.
///
/// - C0 controls become their visible Control Pictures (ESC → ␛), DEL becomes ␡; tab and line
///   breaks become a space.
/// - C1 controls (U+0080–U+009F) and bidirectional overrides and isolates (U+202A–U+202E,
///   U+2066–U+2069) become U+FFFD.
public enum Sanitizer {
    public static func clean(_ text: String) -> String {
        // Fast path: most titles have nothing to replace.
        if !text.unicodeScalars.contains(where: needsReplacing) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(contentsOf: replacement(for: scalar))
        }
        return String(out)
    }

    static func needsReplacing(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    static func replacement(for scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let v = scalar.value
        switch v {
        case 0x09, 0x0A, 0x0D: return [" "]
        case 0x00..<0x20: return [Unicode.Scalar(0x2400 + v)!]
        case 0x7F: return ["\u{2421}"]
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return ["\u{FFFD}"]
        default: return [scalar]
        }
    }
}
