/// The one JSON reader: the tape pass (`JSONScanner+Tape.swift`) checks a document and records
/// where each value is; the helpers here check numbers, UTF-8 and escapes for that pass and decode
/// escapes when a recorded string is read later (`TapeReader.string`). `JSONParser` and `JSONDocument` both
/// stand on it, so they accept and reject exactly the same documents.
///
/// Speed matters here (a cached page must decode in about 0.1 ms), so it reads through a raw
/// pointer with explicit end checks, skips plain string bytes eight at a time and validates UTF-8
/// itself (only where a byte is non-ASCII).
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var index = 0
    /// Scan strings without checking their contents (a `.structure` pass, `scanStoredString`): only
    /// where each ends is found; reading them later repairs invalid UTF-8 and malformed escapes.
    var lenientStrings = false
    /// Unescaped bytes of the string being read; reused so escapes cost no allocation per string.
    let scratch: ByteBuffer
    /// Characters of the strings checked so far that read as U+FFFD: invalid UTF-8 sequences and
    /// escaped surrogates without their pair, which are text lost, not a broken document.
    var replacements = 0

    /// - Parameter scratch: a buffer to reuse, when many strings are read one after another.
    init(base: UnsafePointer<UInt8>, count: Int, scratch: ByteBuffer = ByteBuffer()) {
        self.base = base
        self.count = count
        self.scratch = scratch
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParser.Error {
        JSONParser.Error(offset: offset ?? index, reason: reason)
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < count {
            switch base[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index &+= 1
            default: return
            }
        }
    }

    mutating func expect(_ word: StaticString) throws(JSONParser.Error) {
        let start = word.utf8Start
        for i in 0..<word.utf8CodeUnitCount {
            guard index < count else { throw error("unexpected end of data") }
            guard base[index] == start[i] else { throw error("unexpected character") }
            index &+= 1
        }
    }

    /// Checks the number at `index` and moves past it.
    mutating func skipNumber() throws(JSONParser.Error) {
        if base[index] == UInt8(ascii: "-") { index &+= 1 }
        guard index < count, isDigit(base[index]) else { throw error(index < count ? "invalid number" : "unexpected end of data") }
        if base[index] == UInt8(ascii: "0") {
            index &+= 1
            if index < count, isDigit(base[index]) { throw error("leading zero in number") }
        } else {
            skipDigits()
        }
        if index < count, base[index] == UInt8(ascii: ".") {
            index &+= 1
            guard index < count, isDigit(base[index]) else { throw error(index < count ? "invalid number" : "unexpected end of data") }
            skipDigits()
        }
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index &+= 1 }
            guard index < count, isDigit(base[index]) else { throw error(index < count ? "invalid number" : "unexpected end of data") }
            skipDigits()
        }
    }

    @inline(__always) mutating func skipDigits() {
        while index < count, isDigit(base[index]) { index &+= 1 }
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    // MARK: Strings

    /// The high bit of each of eight bytes (little-endian) that may need attention. Bits above a
    /// true one can be false positives (borrows), but the lowest set bit is always a true one, so
    /// `trailingZeroBitCount / 8` is the offset of the first byte to look at.
    @inline(__always) static func attentionMask(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote
        let zeroInBackslash = (backslash &- ones) & ~backslash
        let control = w &- (ones &* 0x20)  // a byte below 0x20 borrows and sets its high bit
        return (zeroInQuote | zeroInBackslash | control | w) & high
    }

    /// Moves past one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF),
    /// or past the longest start of one that is malformed or cut short (Unicode's "maximal subpart":
    /// the bytes `String(decoding:)` replaces with one U+FFFD, so reading the string later gives
    /// exactly that), counting it in `replacements`. Never past `count`, never past a byte below 0x80
    /// (so never past a closing quote).
    mutating func skipUTF8Sequence(lead: UInt8) {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default:
            replacements &+= 1
            index &+= 1
            return
        }
        var valid = 1
        if index &+ 1 < count, (low...high).contains(base[index &+ 1]) {
            valid = 2
            while valid < length, index &+ valid < count, base[index &+ valid] & 0xC0 == 0x80 { valid &+= 1 }
        }
        if valid < length { replacements &+= 1 }
        index &+= valid
    }

    /// The byte a two-character escape (`\n`, `\"`...) stands for; nil for `\u` and invalid escapes.
    static func shortEscape(_ e: UInt8) -> UInt8? {
        switch e {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// Appends the character of the escape at `index` (a backslash) to `scratch`.
    mutating func parseEscape() throws(JSONParser.Error) {
        let backslash = index
        index &+= 1
        guard index < count else { throw error("unterminated string") }
        let e = base[index]
        index &+= 1
        if let byte = Self.shortEscape(e) {
            scratch.append(byte)
            return
        }
        switch e {
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate pairs with an escaped low surrogate right after it. Alone (an
                // emoji cut in two) it is one U+FFFD, and what follows is read on its own, as
                // `parseEscapeLeniently` reads it.
                let next = index
                if index &+ 1 < count, base[index] == UInt8(ascii: "\\"), base[index &+ 1] == UInt8(ascii: "u") {
                    index &+= 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = next
                    }
                }
                if index == next {
                    scalar = 0xFFFD
                    replacements &+= 1
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                scalar = 0xFFFD
                replacements &+= 1
            }
            appendUTF8(scalar)
        default:
            throw error("invalid escape", at: backslash)
        }
    }

    /// `parseEscape` for unchecked bytes: the same characters for every valid escape, U+FFFD for a
    /// malformed one. It consumes the backslash and the byte after it, as the `.structure` tape pass
    /// skips them, and after `\u` only hex digits (never a quote or backslash), so it ends every
    /// string exactly where that pass did.
    mutating func parseEscapeLeniently() throws(JSONParser.Error) {
        guard index &+ 1 < count else { index = count; throw error("unterminated string") }
        let e = base[index &+ 1]
        index &+= 2
        if let byte = Self.shortEscape(e) {
            scratch.append(byte)
            return
        }
        switch e {
        case UInt8(ascii: "u"):
            guard let high = hex4(at: index) else { appendUTF8(0xFFFD); return }
            index &+= 4
            switch high {
            case 0xD800...0xDBFF:
                if index &+ 6 <= count, base[index] == UInt8(ascii: "\\"), base[index &+ 1] == UInt8(ascii: "u"),
                   let low = hex4(at: index &+ 2), (0xDC00...0xDFFF).contains(low) {
                    index &+= 6
                    appendUTF8(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    appendUTF8(0xFFFD)  // unpaired; what follows is read on its own
                }
            case 0xDC00...0xDFFF: appendUTF8(0xFFFD)
            default: appendUTF8(high)
            }
        default:
            appendUTF8(0xFFFD)
        }
    }

    /// The four hex digits at `offset` as a number, or nil when they are not all there.
    private func hex4(at offset: Int) -> UInt32? {
        guard offset &+ 4 <= count else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let b = base[offset &+ i]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b &- UInt8(ascii: "a") &+ 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b &- UInt8(ascii: "A") &+ 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func hex4() throws(JSONParser.Error) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < count else { throw error("unterminated string") }
            let b = base[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b &- UInt8(ascii: "a") &+ 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b &- UInt8(ascii: "A") &+ 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index &+= 1
        }
        return value
    }
}

/// Bytes appended without `Array`'s generic and uniqueness overhead: escaped strings are built here
/// a few bytes at a time.
package final class ByteBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity = 256
    private var count = 0

    init() { storage = .allocate(capacity: capacity) }
    deinit { storage.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    func removeAll() { count = 0 }

    @inline(__always) func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = byte
        count &+= 1
    }

    @inline(__always) func append(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress, !run.isEmpty else { return }
        if count + run.count > capacity { grow(to: count + run.count) }
        (storage + count).update(from: source, count: run.count)
        count &+= run.count
    }

    private func grow(to needed: Int) {
        var bigger = capacity * 2
        while bigger < needed { bigger *= 2 }
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        new.update(from: storage, count: count)
        storage.deallocate()
        storage = new
        capacity = bigger
    }
}
