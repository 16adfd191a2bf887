import Foundation

/// A JSON document read lazily: one checking pass records where every value is (a "tape"), and
/// strings become `String`s only when read.
///
/// Accepts and rejects exactly what `JSONParser` does, with the same errors. It exists for speed:
/// a cached page's 50 long bodies cost most of a full parse, and the list never shows them.
///
/// ```swift
/// let document = try JSONDocument(data)   // checked once; no string decoded yet
/// let full: JSONValue = document.root.value // everything, when a view needs it
/// ```
public final class JSONDocument: Sendable {
    /// How much of the bytes the tape pass checks.
    public enum Validation: Sendable, Equatable {
        /// Everything `JSONParser` checks: the document is accepted or rejected exactly as it would be.
        /// Bytes inside strings that are not text (invalid UTF-8, a lone surrogate escape) are no
        /// error: they read as U+FFFD and are counted (`replacedCharacters`).
        case full
        /// The structure only, for bytes that were fully checked before (a page read back from the
        /// disk cache). Brackets, commas, colons, literals, numbers and the end of the document are
        /// checked as in `.full`, so truncated or garbled bytes still throw; inside strings only
        /// quotes and backslashes are looked at. Strings are read leniently instead: invalid UTF-8
        /// and malformed escapes (bad `\u` digits, unpaired surrogates, unknown letters) become
        /// U+FFFD, control characters are kept as they are. Never a trap, never a read out of bounds.
        case structure
    }

    /// The document's bytes, exactly as given.
    public let data: Data
    /// What the tape pass checked. Strings are always read without checking them again: a `.full`
    /// pass checked them, and a `.structure` one leaves them to the lenient reading.
    public let validation: Validation
    let tape: [TapeEntry]
    /// What the `.full` pass counted for `replacedCharacters`; nil after a `.structure` pass.
    private let counted: Int?

    /// How many characters of the document's strings read as U+FFFD because their bytes were not
    /// text: an invalid UTF-8 sequence (one for each maximal malformed subpart, as `String(decoding:)`
    /// repairs it) or an escaped surrogate without its pair (`"\ud83d"`, an emoji cut in two). Such a
    /// document is read all the same, one bad character costing one character; this says how many
    /// were lost. Counted by the `.full` pass; for a `.structure` document, by a full pass now.
    public var replacedCharacters: Int {
        counted ?? (try? JSONDocument(data).replacedCharacters) ?? 0
    }

    /// Checks `data` and records the position of each value.
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - validation: `.full` (the default) for bytes from anywhere; `.structure` only for
    ///     bytes that passed `.full` before being stored (see `Validation.structure`).
    /// - Throws: `JSONParser.Error`: for `.full`, as `JSONParser.parse` would for the same bytes.
    public init(_ data: Data, validation: Validation = .full) throws(JSONParser.Error) {
        var tape: [TapeEntry] = []
        tape.reserveCapacity(Self.reservedEntries(forBytes: data.count))
        let result: Result<Int, JSONParser.Error> = data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, !raw.isEmpty else {
                return .failure(JSONParser.Error(offset: 0, reason: "empty input"))
            }
            var scanner = JSONScanner(base: base, count: raw.count)
            scanner.lenientStrings = validation == .structure
            do throws(JSONParser.Error) {
                try scanner.scanDocument(into: &tape)
                return .success(scanner.replacements)
            } catch {
                return .failure(error)
            }
        }
        let replacements = try result.get()
        self.data = data
        self.validation = validation
        self.tape = tape
        counted = validation == .full ? replacements : nil
    }

    /// Room to make in the tape before the pass. About one value per 24 bytes in feed pages: a good
    /// guess saves most regrowth. Past a megabyte a regrowth would copy a tape of tens of megabytes
    /// while the old one is still held (a million small objects peaked at four times the body), so
    /// there the room is the most entries the bytes can hold (one per two bytes, plus nesting): never
    /// regrown, and only the part written is ever resident memory.
    static func reservedEntries(forBytes count: Int) -> Int {
        count > 1 << 20 ? count / 2 + JSONParser.maxDepth + 8 : count / 24 + 8
    }

    /// The top-level value.
    public var root: JSONNode { JSONNode(document: self, index: 0) }

    /// Runs `body` with a reader over the bytes and the tape (both valid only inside `body`).
    package func withReader<R, E: Error>(_ body: (TapeReader) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = data.withUnsafeBytes { raw in
            tape.withUnsafeBufferPointer { tape in
                // The initialiser rejected empty data, so there is a base address.
                let reader = TapeReader(base: raw.bindMemory(to: UInt8.self).baseAddress!, count: raw.count, tape: tape)
                do throws(E) { return .success(try body(reader)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }

    /// The scalar at `path` from the root (`meta.has_more`), or nil when there is none there (or a
    /// container is).
    package func scalar(at path: JSONPath) -> JSONValue? {
        withReader { (r: TapeReader) -> JSONValue? in r.value(0, at: path).flatMap(r.scalar) }
    }

    /// The full value at tape `index`, built from the tape.
    func value(at index: Int) -> JSONValue {
        withReader { (reader: TapeReader) -> JSONValue in reader.value(index) }
    }
}

/// One value inside a `JSONDocument`; cheap to keep (it holds the document, not a copy).
public struct JSONNode: Sendable, Equatable {
    /// The document the value lives in (kept alive by the node).
    public let document: JSONDocument
    package let index: Int

    /// The value at tape `index` of `document`.
    package init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    /// The value with all its contents, built now.
    public var value: JSONValue { document.value(at: index) }

    /// The scalar at `path` below this value, read from the tape without building the rest of the
    /// value; nil when there is none there (or a container is).
    package func scalar(at path: JSONPath) -> JSONValue? {
        let index = index
        return document.withReader { (r: TapeReader) -> JSONValue? in r.value(index, at: path).flatMap(r.scalar) }
    }

    /// The text of every scalar at `path` below this value (several through `*`, and the scalar
    /// elements of an array found there), read from the tape without building the rest of the value.
    package func scalarTexts(at path: JSONPath) -> [String] {
        let index = index
        return document.withReader { (r: TapeReader) -> [String] in
            var found: [String] = []
            r.forEachValue(index, at: path) { v in
                if r.kind(v) == .array {
                    r.forEachElement(of: v) { e in if let text = r.scalar(e)?.scalarText { found.append(text) } }
                } else if let text = r.scalar(v)?.scalarText {
                    found.append(text)
                }
            }
            return found
        }
    }

    /// Same document, same place: equal without building anything.
    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        lhs.document === rhs.document && lhs.index == rhs.index
    }
}
