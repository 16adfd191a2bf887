import CWidth
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Display width of text in terminal columns, from the C library's `wcwidth` (what ncurses uses too,
/// so the buffer and the screen agree).
public enum TextWidth {
    /// `wcwidth` answers by the locale's character type: make it a UTF-8 one once, before the first use.
    private static let localeReady: Bool = {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        if !current.uppercased().contains("UTF-8") && !current.uppercased().contains("UTF8") {
            if setlocale(LC_CTYPE, "") == nil || !(String(cString: setlocale(LC_CTYPE, nil)).uppercased().contains("UTF")) {
                _ = setlocale(LC_CTYPE, "C.UTF-8")
            }
        }
        return true
    }()

    /// Makes sure the locale is ready (the terminal calls this before `initscr`).
    public static func prepare() { _ = localeReady }

    /// Columns taken by one grapheme: 0, 1 or 2.
    public static func width(of character: Character) -> Int {
        _ = localeReady
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        let w = Int(riffle_wcwidth(first.value))
        if w < 0 { return 1 }  // unprintable: the sanitiser replaces these before drawing
        if w == 0 { return character.unicodeScalars.count > 1 ? 1 : 0 }
        // An emoji presentation selector makes a text-style symbol wide (❤️, ☀️).
        if w == 1 && character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return min(w, 2)
    }

    /// Columns taken by `text`.
    public static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    /// `text` cut to at most `columns` columns, ending in "…" when anything was cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if width(of: text) <= columns { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = width(of: character)
            if used + w > columns - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
