/// Text from a server made fit for one line of the list: HTML read as text (`HTMLText`), character
/// references decoded, every run of white space (line breaks included) one space, no control
/// character left (shown as the browser's sanitiser shows them: ESC as ␛, C1 and bidirectional
/// overrides as U+FFFD).
enum DisplayText {
    static func line(_ text: String) -> String {
        var text = text
        guard text.withUTF8(needsWork) else { return text }
        let readable = HTMLText.looksLikeHTML(text) ? HTMLText.plainText(text) : HTMLText.decodingReferences(text)
        var out = String.UnicodeScalarView()
        var space = false
        for scalar in readable.unicodeScalars {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}":
                space = !out.isEmpty
            default:
                if space { out.append(" ") }
                space = false
                out.append(HTMLText.safe(scalar))
            }
        }
        return String(out)
    }

    /// Whether the UTF-8 `bytes` have anything `line` would change; most titles do not, and skip the work.
    static func needsWork(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") { return true }
        let count = bytes.count
        /// The byte at `i` needs work (a C1 or separator's lead byte is judged with the bytes after it).
        @inline(__always) func matters(_ i: Int) -> Bool {
            let b = bytes[i]
            if b < 0x80 { return b < 0x20 || b == 0x7F || b == UInt8(ascii: "<") || b == UInt8(ascii: "&") }
            if b == 0xC2 { return i &+ 1 < count && bytes[i &+ 1] <= 0xA0 }  // C1 controls and U+00A0
            guard b == 0xE2, i &+ 2 < count else { return false }
            // U+2028/2029, U+202A-202E (E2 80 A8...AE) and U+2066-2069 (E2 81 A6...A9).
            let second = bytes[i &+ 1], third = bytes[i &+ 2]
            return (second == 0x80 && third >= 0xA8 && third <= 0xAE) || (second == 0x81 && third >= 0xA6 && third <= 0xA9)
        }
        var i = 0
        // Eight bytes at a time (SWAR, as the JSON scanner does): a word none of whose bytes can
        // matter is skipped whole, so CJK and emoji cost no more than ASCII.
        while i &+ 8 <= count {
            if mayNeedWork(UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
                for j in i..<(i &+ 8) where matters(j) { return true }
            }
            i &+= 8
        }
        while i < count {
            if matters(i) { return true }
            i &+= 1
        }
        return false
    }

    /// Whether any of eight bytes is a control character, DEL, `<`, `&`, or 0xC2/0xE2 (the lead bytes
    /// of C1 controls, U+00A0 and the line separators and bidirectional controls). False positives
    /// are fine (the byte loop looks again); there are no false negatives.
    @inline(__always) private static func mayNeedWork(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroIn(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & high }
        let control = (w &- ones &* 0x20) & ~w & high  // a byte below 0x20 (ASCII lanes) borrows into its high bit
        return (control | zeroIn(w ^ (ones &* 0x7F)) | zeroIn(w ^ (ones &* 0x3C)) | zeroIn(w ^ (ones &* 0x26))
            | zeroIn(w ^ (ones &* 0xC2)) | zeroIn(w ^ (ones &* 0xE2))) != 0
    }
}
