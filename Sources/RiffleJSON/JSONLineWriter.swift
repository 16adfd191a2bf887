import Foundation

/// Writes JSON values as compact one-line JSON bytes that are safe to print on a terminal, copying a
/// document's values from its bytes rather than building them.
///
/// What it writes reads back as the same value (`JSONParser`), and holds nothing a terminal would act
/// on: control characters and DEL are escaped as JSON requires, and so are the characters JSON allows
/// raw that a terminal would act on or that would reorder or break the line: C1 controls
/// (U+0080–U+009F), the bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E,
/// U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029), written `\u202E`.
///
/// A value in a `JSONDocument` (`write(_: JSONNode)`) is copied from the document's bytes: strings
/// and numbers byte for byte, with one scan of each string for what must be escaped. Escapes the
/// server wrote stay as written (`\u00e9`, `\/`), which reads back the same. A string whose bytes are
/// not text (invalid UTF-8, an escaped surrogate without its pair, in a stored page a malformed
/// escape) is written as `TapeReader.string` reads it, U+FFFD for what was lost: as if built first.
package struct JSONLineWriter {
    /// What was written so far.
    package var bytes: [UInt8] = []

    package init() {}

    /// Appends `node`'s value, copied from its document.
    package mutating func write(_ node: JSONNode) {
        node.document.withReader { (reader: TapeReader) in write(reader, node.index) }
    }

    /// Appends `value` (a value built in memory, written with the same escapes).
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let n): append(n)
        case .string(let s): writeText(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                writeText(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text`'s bytes as they are: syntax (`{`, `,`), or text already made safe.
    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as a JSON string literal.
    package mutating func writeText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            // Decoded text is valid UTF-8 and has no escapes: this cannot fail.
            _ = appendContent(utf8.baseAddress, utf8.count, source: false)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func write(_ r: TapeReader, _ i: Int) {
        let entry = r.tape[i]
        switch entry.kind {
        case .null: append("null")
        case .true: append("true")
        case .false: append("false")
        case .number:
            bytes.append(contentsOf: UnsafeBufferPointer(start: r.base + Int(entry.start), count: Int(entry.end &- entry.start)))
        case .string: writeString(r, i)
        case .array:
            bytes.append(UInt8(ascii: "["))
            var first = true
            r.forEachElement(of: i) { e in
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(r, e)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object:
            bytes.append(UInt8(ascii: "{"))
            var first = true
            r.forEachMember(of: i) { k, v in
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(r, k)
                bytes.append(UInt8(ascii: ":"))
                write(r, v)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The string at tape index `i`, from its bytes when they are text, else as read.
    private mutating func writeString(_ r: TapeReader, _ i: Int) {
        let entry = r.tape[i]
        let mark = bytes.count
        bytes.append(UInt8(ascii: "\""))
        let start = Int(entry.start) &+ 1
        if appendContent(r.base + start, Int(entry.end) &- start, source: true) {
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.removeSubrange(mark...)
            writeText(r.string(i))
        }
    }

    /// Appends `count` bytes of a string's content from `p`, escaping what must be: `source` when they
    /// are a JSON string's content as sent (escapes are copied when well formed), else decoded text
    /// (quotes and backslashes are escaped). Returns false, having appended part of it, when the
    /// bytes are not text or (in `source`) an escape is malformed or a lone surrogate.
    private mutating func appendContent(_ p: UnsafePointer<UInt8>?, _ count: Int, source: Bool) -> Bool {
        guard let p, count > 0 else { return true }
        // At least twice the room when it must grow: `reserveCapacity` alone grows to exactly what is
        // asked, so a page of long strings copied everything written so far once for each of them
        // (a 34 MB page: 34 s of JSON lines, 0.5 s with `--fields id`).
        let needed = bytes.count &+ count &+ 2
        if bytes.capacity < needed { bytes.reserveCapacity(Swift.max(needed, bytes.capacity &* 2)) }
        var i = 0
        var run = 0  // the first byte not yet appended
        while i < count {
            // Eight bytes at a time while none needs a look, then straight to the first that does.
            while i &+ 8 <= count {
                let look = Self.lookMask(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                if look == 0 { i &+= 8; continue }
                i &+= look.trailingZeroBitCount &>> 3
                break
            }
            guard i < count else { break }
            let b = p[i]
            if b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\"), b != UInt8(ascii: "\"") {
                i &+= 1
                continue
            }
            if b == UInt8(ascii: "\\") && source {
                // The common escapes first, as the scanner checks them (`\n`, `\u00e9`: not a surrogate).
                if i &+ 1 < count, JSONScanner.isSimpleEscape(p[i &+ 1]) { i &+= 2; continue }
                if i &+ 6 <= count, p[i &+ 1] == UInt8(ascii: "u"), JSONScanner.isPlainUnicodeEscape(p + (i &+ 2)) { i &+= 6; continue }
                guard let length = Self.escapeLength(p, i, count) else { return false }
                i &+= length
                continue
            }
            if b < 0x80 {
                // A control character, DEL, or in decoded text a quote or a backslash.
                flush(p, run, i)
                switch b {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default: appendEscape(UInt32(b), uppercase: false)
                }
                i &+= 1
                run = i
                continue
            }
            // Non-ASCII: a run of the common sequences (CJK, accents, emoji) settled from their bytes alone.
            var n = Self.plainSequenceLength(p, i, count)
            if n != 0 {
                repeat {
                    i &+= n
                    n = i < count ? Self.plainSequenceLength(p, i, count) : 0
                } while n != 0
                continue
            }
            guard let (scalar, length) = Self.decode(p, i, count) else { return false }
            if Self.isUnsafe(scalar) {
                flush(p, run, i)
                appendEscape(scalar, uppercase: true)
                run = i &+ length
            }
            i &+= length
        }
        flush(p, run, count)
        return true
    }

    @inline(__always) private mutating func flush(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
        if to > from { bytes.append(contentsOf: UnsafeBufferPointer(start: p + from, count: to &- from)) }
    }

    /// `\u` and four hex digits.
    private mutating func appendEscape(_ value: UInt32, uppercase: Bool) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let d = UInt8((value >> UInt32(shift)) & 0xF)
            bytes.append(d < 10 ? UInt8(ascii: "0") &+ d : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) &+ d &- 10)
        }
    }

    /// Whether any of the eight bytes is a control, DEL, a quote, a backslash or not ASCII.
    @inline(__always) static func needsLook(_ w: UInt64) -> Bool { lookMask(w) != 0 }

    /// The high bit of lanes that are a control, DEL, a quote, a backslash or not ASCII; exact for the
    /// lowest such lane (a borrow only ever flags a lane above a flagged one), which is all it is used for.
    @inline(__always) static func lookMask(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        // A lane below n sets its high bit in (w - n) & ~w (exact for "any lane", as used here).
        @inline(__always) func equal(_ byte: UInt64) -> UInt64 {
            let x = w ^ (ones &* byte)
            return (x &- ones) & ~x
        }
        let controls = (w &- (ones &* 0x20)) & ~w
        return (controls | equal(0x7F) | equal(0x22) | equal(0x5C) | w) & high
    }

    /// The length of the well-formed escape at `i` (a surrogate pair's two as one), or nil.
    static func escapeLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int) -> Int? {
        guard i &+ 1 < count else { return nil }
        switch p[i &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard let v = hex4(p, i &+ 2, count) else { return nil }
            if v < 0xD800 || v > 0xDFFF { return 6 }
            guard v < 0xDC00, i &+ 7 < count, p[i &+ 6] == UInt8(ascii: "\\"), p[i &+ 7] == UInt8(ascii: "u"),
                  let low = hex4(p, i &+ 8, count), (0xDC00...0xDFFF).contains(low) else { return nil }
            return 12
        default:
            return nil
        }
    }

    private static func hex4(_ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int) -> UInt32? {
        guard i &+ 4 <= count else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = p[i &+ k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// The length of the sequence at `i` when it is well-formed UTF-8 of a scalar written as it is,
    /// told from its bytes without decoding it; 0 for ASCII, for what is not well formed, and for the
    /// leads whose sequences need a closer look (`decode` and `isUnsafe`): C2 (the C1 controls), D8
    /// (U+061C), E0 and ED (overlongs, surrogates), E2 80 and E2 81 (the bidirectional controls and
    /// separators), F0 below F0 90 (overlongs) and F4 (past U+10FFFF).
    @inline(__always) static func plainSequenceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int) -> Int {
        let b0 = p[i]
        if b0 >= 0xE1, b0 <= 0xEF {
            guard b0 != 0xED, i &+ 3 <= count else { return 0 }
            let b1 = p[i &+ 1], b2 = p[i &+ 2]
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b0 != 0xE2 || b1 >= 0x82 else { return 0 }
            return 3
        }
        if b0 >= 0xC3, b0 <= 0xDF {
            guard b0 != 0xD8, i &+ 2 <= count, p[i &+ 1] & 0xC0 == 0x80 else { return 0 }
            return 2
        }
        if b0 >= 0xF0, b0 <= 0xF3 {
            guard i &+ 4 <= count else { return 0 }
            let b1 = p[i &+ 1]
            guard b1 & 0xC0 == 0x80, p[i &+ 2] & 0xC0 == 0x80, p[i &+ 3] & 0xC0 == 0x80, b0 != 0xF0 || b1 >= 0x90 else { return 0 }
            return 4
        }
        return 0
    }

    /// The scalar encoded at `i` and its length, or nil when the bytes there are not well-formed
    /// UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
    @inline(__always) static func decode(_ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int) -> (UInt32, Int)? {
        let b0 = p[i]
        @inline(__always) func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
            guard i &+ k < count else { return nil }
            let b = p[i &+ k]
            return b >= low && b <= high ? UInt32(b & 0x3F) : nil
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = cont(1) else { return nil }
            return (UInt32(b0 & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80, high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
            guard let c1 = cont(1, low, high), let c2 = cont(2) else { return nil }
            return (UInt32(b0 & 0x0F) << 12 | c1 << 6 | c2, 3)
        case 0xF0...0xF4:
            let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80, high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
            guard let c1 = cont(1, low, high), let c2 = cont(2), let c3 = cont(3) else { return nil }
            return (UInt32(b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3, 4)
        default:
            return nil
        }
    }

    /// C1 controls, bidirectional controls, and the line and paragraph separators.
    @inline(__always) static func isUnsafe(_ v: UInt32) -> Bool {
        if v <= 0x9F { return v >= 0x80 }
        guard v >= 0x61C, v <= 0x2069 else { return false }
        return v == 0x61C || v == 0x200E || v == 0x200F || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
