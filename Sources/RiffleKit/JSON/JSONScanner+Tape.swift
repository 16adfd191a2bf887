/// One value or object key of a document, as the tape pass records it.
///
/// 12 bytes, so a page's tape stays small and cache-friendly; documents are limited to 4 GB.
struct TapeEntry {
    enum Kind: UInt8 { case null, `true`, `false`, number, string, object, array }

    /// Set in `flags` when a string holds escapes (its text must be unescaped).
    static let escaped: UInt8 = 1
    /// Set in `flags` when a string holds non-ASCII bytes (byte equality is not `String` equality).
    static let nonASCII: UInt8 = 2

    /// Offset of the value's first byte (a string's opening quote).
    var start: UInt32
    /// Strings: offset of the closing quote; numbers: offset just past the last digit;
    /// containers: the tape index just past their last descendant.
    var end: UInt32
    var kind: Kind
    var flags: UInt8 = 0
}

/// The tape pass: one walk over the bytes that checks them exactly as `parseDocument` does (the
/// same helpers, the same errors and offsets) but builds no values. Strings are recorded by
/// position and decoded only when someone reads them.
extension JSONScanner {
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
        case UInt8(ascii: "\""): try scanString(into: &tape)
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
            try scanString(into: &tape)
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
    private mutating func scanString(into tape: inout [TapeEntry]) throws(JSONParser.Error) {
        let quote = index
        var flags: UInt8 = 0
        index &+= 1
        while true {
            while index &+ 8 <= count, !Self.needsAttention(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index &+= 8
            }
            guard index < count else { throw error("unterminated string") }
            let b = base[index]
            if b == UInt8(ascii: "\"") {
                tape.append(TapeEntry(start: UInt32(truncatingIfNeeded: quote), end: UInt32(truncatingIfNeeded: index),
                                      kind: .string, flags: flags))
                index &+= 1
                return
            } else if b == UInt8(ascii: "\\") {
                flags |= TapeEntry.escaped
                // Only the checks matter here; keep the scratch bytes from piling up.
                scratch.removeAll()
                try parseEscape()
            } else if b < 0x20 {
                throw error(b == 0 ? "NUL byte in string (use \\u0000)" : "control character in string (escape it)")
            } else if b >= 0x80 {
                flags |= TapeEntry.nonASCII
                try skipUTF8Sequence(lead: b)
            } else {
                index &+= 1
            }
        }
    }

    /// The value that starts at byte `offset`, built in full (a tape node being materialised).
    mutating func parseValue(at offset: Int) throws(JSONParser.Error) -> JSONValue {
        index = offset
        return try parseValue(depth: 0)
    }

    /// The text of the string whose opening quote is at byte `offset`, unescaped.
    mutating func parseString(at offset: Int) throws(JSONParser.Error) -> String {
        index = offset
        return try parseString()
    }
}
