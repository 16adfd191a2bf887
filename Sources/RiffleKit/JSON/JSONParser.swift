import Foundation

/// Parses JSON bytes into a `JSONValue` (RFC 8259), in one pass over the raw buffer.
///
/// Written by hand rather than using JSONSerialization: a cached page must decode in well under a
/// millisecond, and Foundation's parsers take several times that (see DECISIONS.md).
public enum JSONParser {
    /// The deepest nesting accepted; deeper documents are rejected rather than overflowing the stack.
    public static let maxDepth = 512

    /// Parses a complete JSON document.
    /// - Throws: `JSONParser.Error` naming the byte offset where parsing failed.
    public static func parse(_ data: Data) throws(JSONParser.Error) -> JSONValue {
        let result: Result<JSONValue, JSONParser.Error> = data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            do throws(JSONParser.Error) {
                scanner.skipWhitespace()
                let value = try scanner.parseValue(depth: 0)
                scanner.skipWhitespace()
                guard scanner.index == scanner.bytes.count else { throw scanner.error("unexpected data after the document") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Why a document is not valid JSON, and where.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// Byte offset of the first byte that could not be parsed.
        public var offset: Int
        public var reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }
}

private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ reason: String) -> JSONParser.Error { JSONParser.Error(offset: index, reason: reason) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of data") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    mutating func expect(_ word: StaticString) throws(JSONParser.Error) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of data") }
        let start = word.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] {
            index += i
            throw error("unexpected character")
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth <= JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(members)) }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data") }
            guard bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(JSONObject(members))
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth <= JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of data") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JSONParser.Error) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    mutating func parseString() throws(JSONParser.Error) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes, valid UTF-8 checked by String's validating initialiser.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let s = String(validating: slice, as: UTF8.self) else {
                    index = start
                    throw error("invalid UTF-8 in string")
                }
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("control character in string") }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        return try parseEscapedString(from: start)
    }

    mutating func parseEscapedString(from start: Int) throws(JSONParser.Error) -> String {
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate must be followed by \u and a low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in string")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate in string")
                    }
                    out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    index -= 1
                    throw error("invalid escape")
                }
            default:
                if b < 0x20 { throw error("control character in string") }
                out.append(b)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(JSONParser.Error) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unterminated string") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
