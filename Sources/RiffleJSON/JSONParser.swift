import Foundation

/// Parses JSON bytes into a `JSONValue` (RFC 8259): a convenience over `JSONDocument`, whose one
/// checking pass (the tape) is built and then read in full. Reading a feed's items goes through the
/// tape directly (`ItemExtractor`) and decodes only what the list shows.
///
/// Written by hand rather than using JSONSerialization: a cached page must decode in well under a
/// millisecond, and Foundation's parsers take several times that (see DECISIONS.md).
///
/// ```swift
/// let page = try JSONParser.parse(data)
/// let title = page["hits"]?.arrayValue?.first?["title"]?.stringValue
/// ```
///
/// The parser is strict about syntax: leading zeros, control characters in strings, unknown
/// escapes and trailing data are errors. Two leniencies: a leading UTF-8 byte order mark is skipped,
/// as RFC 8259 §8.1 allows, and a string's bytes that are not text (invalid UTF-8, an escaped
/// surrogate without its pair) read as U+FFFD, one bad character costing one character rather than
/// the document (`JSONDocument.replacedCharacters` counts them).
public enum JSONParser {
    /// The deepest nesting accepted; deeper documents are rejected rather than overflowing the stack.
    public static let maxDepth = 512

    /// Parses a complete JSON document.
    /// - Throws: `JSONParser.Error` naming the byte offset where parsing failed.
    public static func parse(_ data: Data) throws(JSONParser.Error) -> JSONValue {
        try JSONDocument(data).root.value
    }

    /// Parses a complete JSON document held in an array of bytes.
    /// - Throws: `JSONParser.Error` naming the byte offset where parsing failed.
    public static func parse(_ bytes: [UInt8]) throws(JSONParser.Error) -> JSONValue {
        try parse(Data(bytes))
    }

    /// Why a document is not valid JSON, and where.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// Byte offset of the first byte that could not be parsed; the input's length when it ended too soon.
        public var offset: Int
        /// What was wrong, in a few words.
        public var reason: String
        /// One line: the byte offset and what was expected there.
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }
}
