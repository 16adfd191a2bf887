import Foundation

/// One value or object key of a document, as the tape pass records it.
///
/// 12 bytes, so a page's tape stays small and cache-friendly; documents are limited to 4 GB.
package struct TapeEntry {
    package enum Kind: UInt8 { case null, `true`, `false`, number, string, object, array }

    /// Set in `flags` when a string holds escapes (its text must be unescaped).
    package static let escaped: UInt8 = 1
    /// Set in `flags` when a string holds non-ASCII bytes (byte equality is not `String` equality).
    package static let nonASCII: UInt8 = 2

    /// Offset of the value's first byte (a string's opening quote).
    package var start: UInt32
    /// Strings: offset of the closing quote; numbers: offset just past the last digit;
    /// containers: the tape index just past their last descendant.
    package var end: UInt32
    package var kind: Kind
    package var flags: UInt8 = 0
}

/// The tape pass: one walk over the bytes that checks them (RFC 8259, strictly; see `JSONParser`)
/// and builds no values. Strings are recorded by position and decoded only when someone reads them;
/// `TapeReader.value` builds a `JSONValue` from the tape when one is wanted.
extension JSONScanner {
    /// Checks a whole document and records its values in `tape`, in document order.
    mutating func scanDocument(into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        guard count < Int(UInt32.max) else { throw error("document larger than 4 GB", at: 0) }
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { index = 3 }
        skipWhitespace()
        try scanValue(depth: 0, into: &tape)
        skipWhitespace()
        guard index == count else { throw error("unexpected data after the document") }
    }

    private mutating func scanValue(depth: Int, into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        guard index < count else { throw error("unexpected end of data") }
        let start = UInt32(truncatingIfNeeded: index)
        switch base[index] {
        case UInt8(ascii: "\""): if lenientStrings { try scanStoredString(into: &tape) } else { try scanString(into: &tape) }
        case UInt8(ascii: "{"): try scanObject(depth: depth + 1, into: &tape)
        case UInt8(ascii: "["): try scanArray(depth: depth + 1, into: &tape)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
            tape.append(TapeEntry(start: start, end: UInt32(truncatingIfNeeded: index), kind: .number))
        case UInt8(ascii: "t"): try expect("true"); tape.append(TapeEntry(start: start, end: start, kind: .true))
        case UInt8(ascii: "f"): try expect("false"); tape.append(TapeEntry(start: start, end: start, kind: .false))
        case UInt8(ascii: "n"): try expect("null"); tape.append(TapeEntry(start: start, end: start, kind: .null))
        default: throw error("unexpected character")
        }
    }

    private mutating func scanObject(depth: Int, into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        guard depth <= JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        let open = tape.count
        tape.append(TapeEntry(start: UInt32(truncatingIfNeeded: index), end: 0, kind: .object))
        index &+= 1
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "}") {
            index &+= 1
            tape[open].end = UInt32(truncatingIfNeeded: tape.count)
            return
        }
        while true {
            skipWhitespace()
            guard index < count else { throw error("unexpected end of data") }
            guard base[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            if lenientStrings { try scanStoredString(into: &tape) } else { try scanString(into: &tape) }
            skipWhitespace()
            guard index < count else { throw error("unexpected end of data") }
            guard base[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index &+= 1
            skipWhitespace()
            try scanValue(depth: depth, into: &tape)
            skipWhitespace()
            guard index < count else { throw error("unexpected end of data") }
            switch base[index] {
            case UInt8(ascii: ","): index &+= 1
            case UInt8(ascii: "}"):
                index &+= 1
                tape[open].end = UInt32(truncatingIfNeeded: tape.count)
                return
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func scanArray(depth: Int, into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        guard depth <= JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        let open = tape.count
        tape.append(TapeEntry(start: UInt32(truncatingIfNeeded: index), end: 0, kind: .array))
        index &+= 1
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "]") {
            index &+= 1
            tape[open].end = UInt32(truncatingIfNeeded: tape.count)
            return
        }
        while true {
            skipWhitespace()
            try scanValue(depth: depth, into: &tape)
            skipWhitespace()
            guard index < count else { throw error("unexpected end of data") }
            switch base[index] {
            case UInt8(ascii: ","): index &+= 1
            case UInt8(ascii: "]"):
                index &+= 1
                tape[open].end = UInt32(truncatingIfNeeded: tape.count)
                return
            default: throw error("expected ',' or ']'")
            }
        }
    }

    /// `parseString` without building the string: the same checks, recorded as a position.
    ///
    /// The hot loop of a cached page (long bodies full of escapes and CJK). It keeps its position
    /// in a local and settles the common cases (simple escapes, 2- and 3-byte UTF-8) inline; the
    /// rest, and every error, goes through the parser's own helpers.
    private mutating func scanString(into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        let quote = index
        let base = self.base, count = self.count
        var flags: UInt8 = 0
        var i = index &+ 1
        while true {
            // Eight bytes at a time, settling every flagged byte of a word from its mask, so that
            // escape-dense text does not reload the word after each escape (a long dependency chain).
            words: while i &+ 8 <= count {
                var mask = Self.attentionMask(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let end = i &+ 8
                var next = i  // the first byte not yet accounted for
                while mask != 0 {
                    let p = i &+ (mask.trailingZeroBitCount &>> 3)
                    mask &= mask &- 1
                    if p < next { continue }  // inside an escape or a sequence already consumed
                    let b = base[p]
                    if b == UInt8(ascii: "\\") {
                        if p &+ 1 < count, Self.isSimpleEscape(base[p &+ 1]) {
                            flags |= TapeEntry.escaped
                            next = p &+ 2
                            continue
                        }
                        if p &+ 6 <= count, base[p &+ 1] == UInt8(ascii: "u"), Self.isPlainUnicodeEscape(base + (p &+ 2)) {
                            flags |= TapeEntry.escaped
                            next = p &+ 6
                            continue
                        }
                    } else if b >= 0xC2, b <= 0xDF, p &+ 2 <= count, base[p &+ 1] & 0xC0 == 0x80 {
                        flags |= TapeEntry.nonASCII
                        next = p &+ 2
                        continue
                    } else if b >= 0xE1, b <= 0xEF, b != 0xED, p &+ 3 <= count,
                              base[p &+ 1] & 0xC0 == 0x80, base[p &+ 2] & 0xC0 == 0x80 {
                        flags |= TapeEntry.nonASCII
                        next = p &+ 3
                        continue
                    } else if b >= 0x20, b < 0x80, b != UInt8(ascii: "\"") {
                        continue  // a flag raised by a borrow, not a byte that needs anything
                    }
                    // A quote, a control character, a \u escape or a rarer sequence: the byte loop below.
                    i = p
                    break words
                }
                i = Swift.max(next, end)
            }
            guard i < count else { index = i; throw error("unterminated string") }
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                tape.append(TapeEntry(start: UInt32(truncatingIfNeeded: quote), end: UInt32(truncatingIfNeeded: i),
                                      kind: .string, flags: flags))
                index = i &+ 1
                return
            } else if b == UInt8(ascii: "\\") {
                flags |= TapeEntry.escaped
                if i &+ 1 < count, Self.isSimpleEscape(base[i &+ 1]) { i &+= 2; continue }
                index = i
                try skipEscape()
                i = index
            } else if b < 0x20 {
                index = i
                throw error(b == 0 ? "NUL byte in string (use \\u0000)" : "control character in string (escape it)")
            } else if b >= 0x80 {
                flags |= TapeEntry.nonASCII
                // 2-byte sequences and 3-byte ones whose lead rules out overlongs and surrogates.
                if b >= 0xC2, b <= 0xDF, i &+ 2 <= count, base[i &+ 1] & 0xC0 == 0x80 { i &+= 2; continue }
                if b >= 0xE1, b <= 0xEF, b != 0xED, i &+ 3 <= count,
                   base[i &+ 1] & 0xC0 == 0x80, base[i &+ 2] & 0xC0 == 0x80 { i &+= 3; continue }
                index = i
                skipUTF8Sequence(lead: b)
                i = index
            } else {
                i &+= 1
            }
        }
    }

    /// The string scan of a `.structure` pass (`lenientStrings`): finds the closing quote, a
    /// backslash escaping the byte after it, and checks nothing else. The flags are exact all the
    /// same (`escaped` when there is a backslash, `nonASCII` when a byte is 0x80 or more), since key
    /// matching relies on them.
    ///
    /// Sixteen bytes at a time up to the first quote or backslash (most of a long body), then
    /// eight bytes at a time without a branch per escape (those mispredicted on escape-dense text):
    /// exact masks of the quote and backslash lanes; a lane is escaped when the lane before it is a
    /// backslash, which holds as long as no two backslashes touch (`\\`, rare): a word where they
    /// do is settled byte by byte. The first quote lane not escaped ends the string.
    private mutating func scanStoredString(into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        let quote = index
        let base = self.base, count = self.count
        let high: UInt64 = 0x8080_8080_8080_8080
        var seen: UInt64 = 0         // every content byte ORed in: a high bit means a non-ASCII byte
        var backslashes: UInt64 = 0  // every backslash lane ORed in
        var carry: UInt64 = 0        // 0x80 when the first lane of the next word is escaped
        var i = index &+ 1
        var end = -1  // offset of the closing quote, once found
        // Sixteen bytes at a time (SSE2 or NEON) while they hold neither a quote nor a backslash:
        // an item's body goes by at once; a short string leaves at its first look.
        do {
            var wide = SIMD16<UInt8>(repeating: 0)
            let quotes = SIMD16<UInt8>(repeating: 0x22), slashes = SIMD16<UInt8>(repeating: 0x5C)
            while i &+ 16 <= count {
                let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
                let stops = unsafeBitCast((v .== quotes) .| (v .== slashes), to: SIMD2<UInt64>.self)
                if stops[0] | stops[1] != 0 { break }
                wide |= v
                i &+= 16
            }
            let folded = unsafeBitCast(wide, to: SIMD2<UInt64>.self)
            seen = folded[0] | folded[1]
        }
        // `i + 8 <= count` keeps each unaligned load inside the buffer.
        words: while i &+ 8 <= count {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let quotes = Self.laneMask(w, 0x22)
            let slashes = Self.laneMask(w, 0x5C)
            let escapedLanes = slashes &<< 8 | carry
            if slashes & escapedLanes == 0 {
                let closing = quotes & ~escapedLanes
                if closing != 0 {
                    let lanes = UInt64(closing.trailingZeroBitCount &>> 3)
                    let before = (1 &<< (lanes &<< 3)) &- 1  // the bytes of the lanes before the quote
                    seen |= w & before
                    backslashes |= slashes & before
                    end = i &+ Int(lanes)
                    break words
                }
                seen |= w
                backslashes |= slashes
                carry = (slashes &>> 56) & 0x80
                i &+= 8
                continue
            }
            // Touching backslashes: this word byte by byte.
            var escaped = carry != 0
            for k in 0..<8 {
                let b = base[i &+ k]
                if escaped { escaped = false; seen |= UInt64(b); continue }
                if b == UInt8(ascii: "\"") { end = i &+ k; break words }
                seen |= UInt64(b)
                if b == UInt8(ascii: "\\") { escaped = true; backslashes = high }
            }
            carry = escaped ? 0x80 : 0
            i &+= 8
        }
        if end < 0 {
            // Fewer than eight bytes left: byte by byte, to the end of the data at most.
            var escaped = carry != 0
            while i < count {
                let b = base[i]
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\"") {
                    end = i
                    break
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                    backslashes = high
                }
                seen |= UInt64(b)
                i &+= 1
            }
            guard end >= 0 else { index = count; throw error("unterminated string") }
        }
        var flags: UInt8 = 0
        if backslashes != 0 { flags |= TapeEntry.escaped }
        if seen & high != 0 { flags |= TapeEntry.nonASCII }
        tape.append(TapeEntry(start: UInt32(truncatingIfNeeded: quote), end: UInt32(truncatingIfNeeded: end),
                              kind: .string, flags: flags))
        index = end &+ 1
    }

    /// The high bit of each of eight bytes that is exactly `byte`; no false positives (the per-lane
    /// zero test cannot borrow across lanes, unlike `attentionMask`).
    @inline(__always) private static func laneMask(_ w: UInt64, _ byte: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = w ^ (ones &* byte)
        // Per lane: the high bit is set when the lane is not zero (adding 0x7F to its low seven
        // bits never carries out of the lane).
        return ~(((x & low7) &+ low7) | x | low7)
    }

    /// `"` `\\` `/` `b` `f` `n` `r` `t`: a bitmap test rather than a jump table, which mispredicted.
    @inline(__always) static func isSimpleEscape(_ c: UInt8) -> Bool {
        let low: UInt64 = 1 << 0x22 | 1 << 0x2F
        let high: UInt64 = 1 << (0x5C - 64) | 1 << (0x62 - 64) | 1 << (0x66 - 64) | 1 << (0x6E - 64)
            | 1 << (0x72 - 64) | 1 << (0x74 - 64)
        let word = c < 64 ? low : c < 128 ? high : 0
        return (word >> UInt64(c & 63)) & 1 != 0
    }

    /// Moves past the escape at `index` (a backslash). The common ones are checked here in a few
    /// instructions; anything else (surrogates, errors) goes through `parseEscape`, so the checks
    /// and messages stay the parser's.
    @inline(__always) private mutating func skipEscape() throws(JSONParser.Error) {
        if index &+ 1 < count {
            switch base[index &+ 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index &+= 2
                return
            case UInt8(ascii: "u") where index &+ 6 <= count:
                var scalar: UInt32 = 0
                var valid = true
                for i in 2..<6 {
                    let digit = Self.hexValue(base[index &+ i])
                    valid = valid && digit < 16
                    scalar = scalar << 4 | digit
                }
                if valid && !(0xD800...0xDFFF).contains(scalar) {
                    index &+= 6
                    return
                }
            default: break
            }
        }
        // Only the checks matter here; keep the scratch bytes from piling up.
        scratch.removeAll()
        try parseEscape()
    }

    /// Whether the four bytes at `digits` are hex digits naming a scalar outside the surrogates
    /// (those need their pair checked, which `parseEscape` does).
    @inline(__always) static func isPlainUnicodeEscape(_ digits: UnsafePointer<UInt8>) -> Bool {
        // The four bytes as lanes of one word, checked together (SWAR) rather than byte by byte.
        let x = UnsafeRawPointer(digits).loadUnaligned(as: UInt32.self)
        let ones: UInt32 = 0x0101_0101, high: UInt32 = 0x8080_8080
        guard x & high == 0 else { return false }
        // For ASCII lanes, `lane + (0x80 - lo)` sets bit 7 when lane >= lo and `(0x80 + hi) - lane`
        // sets it when lane <= hi; neither carries or borrows across lanes.
        @inline(__always) func within(_ v: UInt32, _ lo: UInt32, _ hi: UInt32) -> UInt32 {
            (v &+ ones &* (0x80 &- lo)) & (ones &* (0x80 &+ hi) &- v) & high
        }
        let digit = within(x, 0x30, 0x39)
        let letter = within(x | 0x2020_2020, 0x61, 0x66)
        guard digit | letter == high else { return false }
        // Lane values: the low nibble, plus 9 for letters (bit 6 set).
        let nibbles = (x & 0x0F0F_0F0F) &+ ((x &>> 6) & ones) &* 9
        // The first digit is the most significant: a surrogate is D800-DFFF, "D" then 8 or more.
        return !(nibbles & 0xFF == 0xD && (nibbles &>> 8) & 0xFF >= 8)
    }

    /// 0-15 for a hex digit, 16 or more for anything else.
    @inline(__always) private static func hexValue(_ b: UInt8) -> UInt32 {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b &- UInt8(ascii: "A") &+ 10)
        default: 16
        }
    }

    /// The text of a string the tape pass recorded: its opening quote at `start`, its closing one
    /// at `end`. The pass found where it ends and (for `.full`) checked it, so this only copies the
    /// runs between backslashes (found with `memchr`) and decodes each escape, leniently: for checked
    /// bytes that is the same text, for unchecked ones malformed escapes become U+FFFD and invalid
    /// UTF-8 is repaired by `String(decoding:)`. Never throws, never reads past `end`.
    mutating func recordedString(from start: Int, to end: Int) -> String {
        scratch.removeAll()
        var i = start &+ 1
        while i < end {
            guard let found = memchr(base + i, 0x5C, end &- i) else {
                scratch.append(UnsafeBufferPointer(start: base + i, count: end &- i))
                break
            }
            let backslash = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
            scratch.append(UnsafeBufferPointer(start: base + i, count: backslash &- i))
            index = backslash
            // The tape pass ended the string at `end`, so an escape here has its next byte; the
            // lenient reading consumes exactly what that pass skipped, and never the closing quote.
            do throws(JSONParser.Error) { try parseEscapeLeniently() } catch { break }
            i = index
        }
        return String(decoding: scratch.bytes, as: UTF8.self)
    }
}
