import Foundation

/// Parses JSON bytes into a `JSONValue` (RFC 8259), in one pass over the raw buffer.
///
/// Written by hand rather than using JSONSerialization: a cached page must decode in well under a
/// millisecond, and Foundation's parsers take several times that (see DECISIONS.md).
///
/// ```swift
/// let page = try JSONParser.parse(data)
/// let title = page["hits"]?.arrayValue?.first?["title"]?.stringValue
/// ```
///
/// The parser is strict: invalid UTF-8, unpaired surrogate escapes, leading zeros, control
/// characters in strings and trailing data are errors. One leniency: a leading UTF-8 byte order
/// mark is skipped, as RFC 8259 §8.1 allows.
public enum JSONParser {
    /// The deepest nesting accepted; deeper documents are rejected rather than overflowing the stack.
    public static let maxDepth = 512

    /// Parses a complete JSON document.
    /// - Throws: `JSONParser.Error` naming the byte offset where parsing failed.
    public static func parse(_ data: Data) throws(JSONParser.Error) -> JSONValue {
        let result: Result<JSONValue, JSONParser.Error> = data.withUnsafeBytes { raw in
            parse(bytes: raw.bindMemory(to: UInt8.self))
        }
        return try result.get()
    }

    /// Parses a complete JSON document held in an array of bytes.
    /// - Throws: `JSONParser.Error` naming the byte offset where parsing failed.
    public static func parse(_ bytes: [UInt8]) throws(JSONParser.Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { parse(bytes: $0) }.get()
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParser.Error> {
        // An empty buffer may have no base address; give the scanner one so it never checks.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return .failure(Error(offset: 0, reason: "empty input"))
        }
        var scanner = JSONScanner(base: base, count: bytes.count)
        do throws(JSONParser.Error) {
            return .success(try scanner.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    /// Why a document is not valid JSON, and where.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// Byte offset of the first byte that could not be parsed; the input's length when it ended too soon.
        public var offset: Int
        /// What was wrong, in a few words.
        public var reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }
}
