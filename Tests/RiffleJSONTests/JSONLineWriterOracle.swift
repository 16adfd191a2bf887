import Foundation
@testable import RiffleJSON

/// `JSONLineWriter` as it was before its non-ASCII fast path (commit d8a19da), kept unchanged as the
/// oracle of `JSONLineWriterDifferentialTests`: the writer must write exactly these bytes for every input.
struct JSONLineWriterOracle {
    /// What was written so far.
    var bytes: [UInt8] = []

    init() {}

    /// Appends `node`'s value, copied from its document.
    mutating func write(_ node: JSONNode) {
        node.document.withReader { (reader: TapeReader) in write(reader, node.index) }
    }

    /// Appends `value` (a value built in memory, written with the same escapes).
    mutating func write(_ value: JSONValue) {
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
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as a JSON string literal.
    mutating func writeText(_ text: String) {
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
        bytes.reserveCapacity(bytes.count &+ count &+ 2)
        var i = 0
        var run = 0  // the first byte not yet appended
        while i < count {
            // Eight bytes at a time while none needs a look.
            while i &+ 8 <= count, !Self.needsLook(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) { i &+= 8 }
            guard i < count else { break }
            let b = p[i]
            if b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\"), b != UInt8(ascii: "\"") {
                i &+= 1
                continue
            }
            if b == UInt8(ascii: "\\") && source {
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
    @inline(__always) static func needsLook(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        // A lane below n sets its high bit in (w - n) & ~w (exact for "any lane", as used here).
        @inline(__always) func equal(_ byte: UInt64) -> UInt64 {
            let x = w ^ (ones &* byte)
            return (x &- ones) & ~x
        }
        let controls = (w &- (ones &* 0x20)) & ~w
        return (controls | equal(0x7F) | equal(0x22) | equal(0x5C) | w) & high != 0
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
