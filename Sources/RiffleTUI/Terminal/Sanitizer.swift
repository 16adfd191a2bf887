/// Makes remote text safe to draw: no byte of it can move the cursor, clear the screen, set the
/// clipboard, reorder the line or break it.
///
/// - C0 controls become their visible Control Pictures (ESC → ␛), DEL becomes ␡; tab and line
///   breaks become a space.
/// - C1 controls (U+0080–U+009F), the bidirectional controls (U+061C, U+200E–U+200F,
///   U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029) become
///   U+FFFD.
///
/// `riffle dump` and every line riffle writes to standard error go through the same function.
package enum Sanitizer {
    package static func clean(_ text: String) -> String {
        // Fast path: most titles have nothing to replace.
        if !text.unicodeScalars.contains(where: isUnsafe) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(contentsOf: replacement(for: scalar))
        }
        return String(out)
    }

    /// Whether `clean` replaces `scalar`: it could steer a terminal or reorder what is shown.
    package static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
        guard v >= 0x61C, v <= 0x2069 else { return false }
        return v == 0x61C || v == 0x200E || v == 0x200F || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// JSON text as `JSONWriter` writes it (which already escapes C0 controls, DEL, U+2028 and U+2029),
    /// with what JSON allows raw but a terminal would act on, C1 and bidirectional controls, written
    /// as `\u` escapes. Such scalars can only stand inside strings (JSON's own syntax is ASCII), where
    /// an escape means the same character, so the JSON reads back unchanged. `Y`'s copy goes through
    /// it; `riffle dump` writes the same escapes as it copies (`JSONLineWriter`).
    package static func json(_ text: String) -> String {
        // Fast path on bytes: every scalar concerned is encoded with a lead byte C2, D8 or E2.
        guard text.utf8.contains(where: { $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80, isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func replacement(for scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let v = scalar.value
        switch v {
        case 0x09, 0x0A, 0x0D: return [" "]
        case 0x00..<0x20: return [Unicode.Scalar(0x2400 + v)!]
        case 0x7F: return ["\u{2421}"]
        case _ where isUnsafe(scalar): return ["\u{FFFD}"]
        default: return [scalar]
        }
    }
}
