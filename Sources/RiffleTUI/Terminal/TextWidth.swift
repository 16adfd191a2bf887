import CWidth
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Display width of text in terminal columns, from the C library's `wcwidth` (what ncurses uses too,
/// so the buffer and the screen agree).
package enum TextWidth {
    /// `wcwidth` answers by the locale's character type: make it a UTF-8 one once, before the first use.
    private static let localeReady: Bool = {
        prepareCharacterType { category, name in
            let answer = name.map { setlocale(category, $0) } ?? setlocale(category, nil)
            return answer.map { String(cString: $0) }
        }
        return true
    }()

    /// Sets the locale's character type (`LC_CTYPE`) from the environment, or to C.UTF-8 when that is
    /// not a UTF-8 one, through `setLocale` (`setlocale(3)`: a name sets, nil asks; the answer is the
    /// category's name, nil when it failed). Only the character type: wcwidth, mbrtowc and ncurses read
    /// it, while loading every category (`LC_ALL`) reads a dozen locale files at start-up and would turn
    /// the C library's messages and number formats local, unlike the rest of riffle.
    package static func prepareCharacterType(_ setLocale: (Int32, String?) -> String?) {
        func isUTF8(_ name: String?) -> Bool {
            let upper = (name ?? "C").uppercased()
            return upper.contains("UTF-8") || upper.contains("UTF8")
        }
        if isUTF8(setLocale(LC_CTYPE, nil)) { return }
        if isUTF8(setLocale(LC_CTYPE, "")) { return }
        _ = setLocale(LC_CTYPE, "C.UTF-8")
    }

    /// Makes sure the locale is ready (the terminal calls this before `initscr`).
    package static func prepare() { _ = localeReady }

    /// Columns taken by one grapheme (an extended grapheme cluster, with all its code points): 0, 1 or 2.
    ///
    /// A cluster is as wide as its first code point, except that a pair of regional indicators (a flag,
    /// 🇺🇦) and anything carrying the emoji presentation selector U+FE0F (❤️, 1️⃣) take two columns, and
    /// a cluster that starts with a zero-width code point but holds more takes one. So 👨‍👩‍👧‍👦 and 👍🏽 are
    /// two columns, e + U+0301 is one.
    package static func width(of character: Character) -> Int {
        _ = localeReady
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let isSingle = scalars.index(after: scalars.startIndex) == scalars.endIndex
        if isSingle && first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if !isSingle {
            if isRegionalIndicator(first) && scalars.dropFirst().allSatisfy(isRegionalIndicator) { return 2 }
            if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        }
        let w = columns(of: first)
        if w < 0 { return 1 }  // unprintable: the sanitiser replaces these before drawing
        if w == 0 { return isSingle ? 0 : 1 }
        return min(w, 2)
    }

    /// `wcwidth` of one code point: 0, 1, 2, or -1 when it is not printable. What ncurses measures a
    /// cell by, so the terminal backend can tell when the two disagree.
    package static func columns(of scalar: Unicode.Scalar) -> Int {
        _ = localeReady
        if scalar.value < 0x7F { return scalar.value < 0x20 ? -1 : 1 }
        return Int(riffle_wcwidth(scalar.value))
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar.value) }

    /// Columns taken by `text`.
    package static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    /// `text` cut to at most `columns` columns, ending in "…" when anything was cut.
    /// - Parameter continues: `text` is the start of something longer, so it ends in "…" even when it fits.
    package static func truncate(_ text: String, to columns: Int, continues: Bool = false) -> String {
        guard columns > 0 else { return "" }
        if !continues && width(of: text) <= columns { return text }
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
