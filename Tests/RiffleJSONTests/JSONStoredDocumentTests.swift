import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// `JSONDocument(data, validation: .structure)`, the reading mode of pages read back from disk:
/// on valid bytes exactly what the strict mode gives (tape, values); on broken structure an
/// error; on string contents it did not check, never a crash but U+FFFD (or the byte kept).
@Suite struct JSONStoredDocumentTests {
    static func stored(_ bytes: [UInt8]) -> Result<JSONValue, JSONParser.Error> {
        do throws(JSONParser.Error) {
            return .success(try JSONDocument(Data(bytes), validation: .structure).root.value)
        } catch { return .failure(error) }
    }

    static func strict(_ bytes: [UInt8]) -> Result<JSONValue, JSONParser.Error> { JSONDocumentTests.viaTape(bytes) }

    /// Failures that come from a string's contents, which the stored mode does not look for.
    static let contentReasons: Set<String> = [
        "invalid UTF-8 in string", "NUL byte in string (use \\u0000)", "control character in string (escape it)",
        "invalid escape", "invalid \\u escape", "unpaired surrogate in string",
    ]

    /// Both modes on the same bytes: equal when strict accepts (tape entries and flags included);
    /// when strict rejects for anything but a string's contents, stored rejects too (with the same
    /// error, unless strict found a string unterminated).
    static func check(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let strict = Self.strict(bytes), stored = Self.stored(bytes)
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        switch strict {
        case .success:
            #expect(stored == strict, "\(text)", sourceLocation: sourceLocation)
            if let a = try? JSONDocument(Data(bytes)), let b = try? JSONDocument(Data(bytes), validation: .structure) {
                #expect(a.tape.map(Entry.init) == b.tape.map(Entry.init), "\(text)", sourceLocation: sourceLocation)
            }
        case .failure(let error) where !contentReasons.contains(error.reason):
            guard case .failure(let mine) = stored else {
                Issue.record("stored mode accepted \(text): \(error)", sourceLocation: sourceLocation)
                return
            }
            // Strict reads a UTF-8 sequence cut by the end of the data as an unterminated string, even
            // when its last byte is a quote; stored ends the string there and fails a little later.
            if error.reason != "unterminated string" {
                #expect(mine == error, "\(text)", sourceLocation: sourceLocation)
            }
        case .failure:
            break  // either way, as long as it does not crash
        }
    }

    /// A tape entry in comparable form.
    struct Entry: Equatable {
        let start: UInt32, end: UInt32, kind: UInt8, flags: UInt8
        init(_ e: TapeEntry) { start = e.start; end = e.end; kind = e.kind.rawValue; flags = e.flags }
    }

    @Test(arguments: 0..<8)
    func generatedDocumentsMatchTheStrictMode(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: 5_000 + seed)
        for _ in 0..<250 {
            let bytes = Array(generator.document().utf8)
            #expect(Self.strict(bytes).isSuccess)
            Self.check(bytes)
        }
    }

    /// Long strings (many words of the 8-byte scan), with runs of backslashes (`\\\\`, `\\\\\\"`) that
    /// take the byte-by-byte word, escapes and sequences across every word boundary.
    @Test(arguments: 0..<4)
    func longStringsMatchTheStrictMode(seed: UInt64) {
        var rng = SeededGenerator(seed: 300 + seed)
        let pieces = ["a", "bcdefgh", " ", "é", "東京", "😀", "\\\"", "\\\\", "\\\\\\\"", "\\\\\\\\", "\\n", "\\/", "\\u00e9",
                      "\\uD83D\\uDE00", "\\u2014", "#", "]", "\\\\\\\\\\\\"]
        for _ in 0..<200 {
            let n = Int.random(in: 0...60, using: &rng)
            let body = (0..<n).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
            let text = "{\"k\\\\\":\"\(body)\",\"\(body)\":[\"\(body)\",1]}"
            #expect(Self.strict(Array(text.utf8)).isSuccess, "\(text.debugDescription)")
            Self.check(Array(text.utf8))
            // And cut at every byte: never a crash, and a cut document is never accepted.
            let bytes = Array(text.utf8)
            for length in 0..<bytes.count {
                #expect(!Self.stored(Array(bytes[..<length])).isSuccess, "\(length) of \(text.debugDescription)")
            }
        }
    }

    @Test(arguments: 0..<4)
    func mutatedDocumentsFailLikeTheStrictModeOrReadLeniently(seed: UInt64) {
        var generator = JSONDocumentGenerator(seed: 7_000 + seed)
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let bytes = JSONMutation.edit(Array(generator.document(maxDepth: 3).utf8), using: &rng)
            Self.check(bytes)
            Self.check(Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))))
        }
    }

    @Test(arguments: [
        "", " ", "\u{FEFF}", "\u{FEFF}[1]", "[1,]", "{\"a\":1,}", "[01]", "[-]", "[1.]", "[1e]", "[.5]", "[1] [2]", "{\"a\" 1}",
        "{1:2}", "[tru]", "nul", "{\"a\":{\"b\":[}}", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512), "{\"a\":1,\"a\":2}", "1e999", "[\"a\" \"b\"]",
        "{\"a\":\"b\" \"c\":1}", "[\"\\\"]", "[\"\\\\\"]", "\"\\", "\"abc", "[\"x\"]]", "{\"a\"}", "[\"a\":1]", "[1 2]", "[+1]",
        "[0x1]", "[Infinity]", "[NaN]", "{\"a\":1}x", "[\"\\u\"]", "[\"\\u\"\"]",
    ])
    func structuralTraps(text: String) {
        Self.check(Array(text.utf8))
    }

    /// What the stored mode does with string contents that were not checked. Bytes that are not text
    /// (invalid UTF-8, unpaired surrogates) the strict mode reads the same way (one U+FFFD each, the
    /// page kept); broken syntax (raw controls, unknown or short escapes) it rejects.
    @Test(arguments: [
        ([0x22, 0x61, 0xFF, 0x62, 0x22], "a\u{FFFD}b", true),                   // a byte that is never UTF-8
        ([0x22, 0xC3, 0x22], "\u{FFFD}", true),                               // a cut sequence
        ([0x22, 0xC0, 0xAF, 0x22], "\u{FFFD}\u{FFFD}", true),                 // overlong
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "\u{FFFD}\u{FFFD}\u{FFFD}", true),   // an encoded surrogate
        ([0x22, 0x01, 0x09, 0x00, 0x22], "\u{01}\t\u{00}", false),            // control characters: kept
        (Array(#""\x""#.utf8), "\u{FFFD}", false),                             // unknown escape
        (Array(#""a\u12""#.utf8), "a\u{FFFD}12", false),                        // short \u: the rest is text
        (Array(#""\u12G4""#.utf8), "\u{FFFD}12G4", false),
        (Array(#""\ud800""#.utf8), "\u{FFFD}", true),                         // unpaired surrogates
        (Array(#""\udc00x""#.utf8), "\u{FFFD}x", true),
        (Array(#""\ud800\u0041""#.utf8), "\u{FFFD}A", true),
        (Array(#""\ud800\ud800\udc00""#.utf8), "\u{FFFD}\u{10000}", true),
        (Array(#""\ud800\n""#.utf8), "\u{FFFD}\n", true),
        ([0x22, 0x5C, 0xC3, 0xA9, 0x22], "\u{FFFD}\u{FFFD}", false),           // a backslash before a non-ASCII byte
    ] as [([UInt8], String, Bool)])
    func uncheckedStringContentsReadLeniently(bytes: [UInt8], expected: String, strictReadsIt: Bool) {
        #expect(Self.strict(bytes).isSuccess == strictReadsIt)
        if strictReadsIt { #expect(Self.strict(bytes) == .success(.string(expected))) }
        #expect(Self.stored(bytes) == .success(.string(expected)))
        // The same string as a key and a value, read through the tape reader.
        let object = [UInt8]("{\"title\":".utf8) + bytes + Array(",".utf8) + bytes + Array(":1}".utf8)
        #expect(Self.stored(object) == .success(.object(JSONObject([("title", .string(expected)), (expected, .number("1"))]))))
        if strictReadsIt { #expect(Self.strict(object) == Self.stored(object)) }
    }

    /// Every awkward piece at every offset of an 8-byte word, alone, twice, and cut off.
    @Test func escapesAndSequencesAtEveryOffsetOfAWord() {
        let pieces: [[UInt8]] = [
            Array("\\\"".utf8), Array("\\\\".utf8), Array("\\\\\\\"".utf8), Array("\\\\\\\\".utf8), Array("\\u00e9".utf8),
            Array("\\uD83D\\uDE00".utf8), Array("\\uD83D".utf8), Array("\\u12".utf8), Array("\\x".utf8), Array("é".utf8),
            Array("東".utf8), Array("😀".utf8), [0xC3], [0xE6, 0x9D], [0xED, 0xA0, 0x80], [0x01], [0x7F], Array("\\".utf8),
            Array("#".utf8), [0x22, 0x23], [0x5C, 0xC3], Array("]".utf8), Array("\\u".utf8),
        ]
        for offset in 0..<17 {
            for piece in pieces {
                for tail in [[], Array("abc\\n".utf8), piece] {
                    let bytes = [0x22] + Array(repeating: UInt8(ascii: "a"), count: offset) + piece + tail + [0x22]
                    Self.check(bytes)
                    Self.check([0x5B] + bytes + [0x2C, 0x31, 0x5D])  // ["...",1]
                    let unterminated = Array(bytes.dropLast())
                    #expect(!Self.stored(unterminated).isSuccess, "\(unterminated)")
                }
            }
        }
    }

}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
