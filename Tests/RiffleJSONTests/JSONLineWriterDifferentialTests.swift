import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// `JSONLineWriter` against the writer it replaced (`JSONLineWriterOracle`): `riffle dump` writes the
/// same bytes for every input, whatever the speed-ups, so no escape a terminal needs is lost and none
/// is added. Hostile strings (every control, C1, bidirectional control and separator, invalid UTF-8,
/// malformed escapes), every scalar, and every lead byte with the continuation bytes at the edges of
/// the ranges that matter.
@Suite struct JSONLineWriterDifferentialTests {
    /// Pieces strings are made of: the characters that must be escaped and their neighbours, text, and
    /// bytes that are not text. `strict` ones are accepted by a `.full` pass.
    static let strictPieces: [[UInt8]] = {
        var scalars: [UInt32] = [0x7F, 0xA0, 0xE9, 0x5FF, 0x600, 0x61B, 0x61C, 0x61D, 0x7FF, 0x800, 0x2000, 0x200B, 0x200D,
                                 0x200E, 0x200F, 0x2010, 0x2014, 0x2027, 0x2028, 0x2029, 0x202A, 0x202E, 0x202F, 0x203F,
                                 0x2040, 0x2065, 0x2066, 0x2069, 0x206A, 0x2080, 0x3000, 0x6771, 0xAC00, 0xD7FF, 0xE000,
                                 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F680, 0x1F469, 0x10FFFF]
        scalars += Array(0x80...0x9F)
        var pieces = scalars.map { Array(String(Character(Unicode.Scalar($0)!)).utf8) }
        pieces += ["a", "plain words ", "東京", "日本語", "데이터", "👩‍💻", "🇯🇵", "é", "—", "12345678", " "].map { Array($0.utf8) }
        pieces += [#"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0000"#, #"\u001b"#, #"\u001F"#,
                   #"\u007f"#, #"\u0085"#, #"\u00e9"#, #"\u2028"#, #"\u202E"#, #"\uFFFF"#, #"\ud83d\ude00"#, #"\uD83D\uDE00"#,
                   #"\ud83d"#, #"\ude00"#, #"\ud83d\u0041"#].map { Array($0.utf8) }
        return pieces
    }()

    /// Raw controls, invalid UTF-8 and malformed escapes, as only a stored page's `.structure` pass reads them.
    static let damagedPieces: [[UInt8]] = {
        var pieces = (0..<0x20).map { [UInt8($0)] }
        pieces += [[0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xC3], [0xDF], [0xD8],
                   [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xE0, 0xA0], [0xE2, 0x80], [0xE2, 0x80, 0xA8, 0xA8], [0xE2, 0x81],
                   [0xE3, 0x81], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xEF, 0xBF], [0xF0, 0x80, 0x80, 0x80],
                   [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x9F, 0x9A], [0xF0, 0x9F], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
                   [0xF5, 0x80, 0x80, 0x80], [0xF8], [0xFE], [0xFF]]
        pieces += [#"\q"#, #"\u12G4"#, #"\u"#, #"\u00"#, #"\x41"#, #"\ud83d\ude0"#].map { Array($0.utf8) }
        return pieces
    }()

    /// Writes the document's root both ways, built values too; expects the same bytes.
    static func compare(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        for validation in [JSONDocument.Validation.full, .structure] {
            guard let document = try? JSONDocument(Data(bytes), validation: validation) else { continue }
            var writer = JSONLineWriter(), oracle = JSONLineWriterOracle()
            writer.write(document.root)
            oracle.write(document.root)
            if writer.bytes != oracle.bytes {
                let written = String(decoding: writer.bytes, as: UTF8.self).debugDescription
                let expected = String(decoding: oracle.bytes, as: UTF8.self).debugDescription
                Issue.record("\(validation) document written differently:\n\(written)\noracle:\n\(expected)", sourceLocation: sourceLocation)
                return
            }
            var built = JSONLineWriter(), builtOracle = JSONLineWriterOracle()
            let value = document.root.value
            built.write(value)
            builtOracle.write(value)
            #expect(built.bytes == builtOracle.bytes, "\(validation) value written differently", sourceLocation: sourceLocation)
        }
    }

    /// An array of `strings` strings of random pieces.
    static func document(strings: Int, pieces: [[UInt8]], using rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = Array("[".utf8)
        for s in 0..<strings {
            if s > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for _ in 0..<Int.random(in: 0...12, using: &rng) { bytes += pieces.randomElement(using: &rng)! }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes += Array("]".utf8)
        return bytes
    }

    @Test(arguments: 0..<8)
    func hostileStringsAreWrittenAsBefore(seed: UInt64) {
        var rng = SeededGenerator(seed: 26_000 + seed)
        for _ in 0..<300 {
            Self.compare(Self.document(strings: 8, pieces: Self.strictPieces, using: &rng))
            Self.compare(Self.document(strings: 8, pieces: Self.strictPieces + Self.damagedPieces, using: &rng))
        }
    }

    @Test(arguments: 0..<4)
    func generatedAndDamagedDocumentsAreWrittenAsBefore(seed: UInt64) {
        var generator = JSONDocumentGenerator(seed: 27_000 + seed)
        var rng = SeededGenerator(seed: 28_000 + seed)
        for _ in 0..<300 {
            var bytes = Array(generator.document(maxDepth: 3).utf8)
            Self.compare(bytes)
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty { bytes = JSONMutation.edit(bytes, using: &rng) }
            Self.compare(bytes)
        }
    }

    /// Every scalar, raw, in strings of 61 scalars (so each lands at every offset of the eight-byte words).
    @Test func everyScalarIsWrittenAsBefore() {
        var bytes: [UInt8] = Array("[\"".utf8)
        var inString = 0
        for v in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v), v != 0x22, v != 0x5C else { continue }
            bytes += Array(String(Character(scalar)).utf8)
            inString += 1
            if inString == 61 {
                bytes += Array("\",\"".utf8)
                inString = 0
            }
        }
        bytes += Array("\"]".utf8)
        Self.compare(bytes)
    }

    /// Every lead byte followed by continuation bytes at the edges that matter (C1, the E2 80 / E2 81
    /// controls, overlongs, surrogates, past U+10FFFF), and by bytes that are not continuations.
    /// The bytes after E2 80 and E2 81 that the escapes turn on, their neighbours, and non-continuations.
    static let thirdBytes: [UInt8] = [0x41, 0x80, 0x8E, 0x8F, 0x9F, 0xA6, 0xA8, 0xA9, 0xAE, 0xAF, 0xBF, 0xC0]

    @Test func everyLeadWithEdgeContinuationsIsWrittenAsBefore() {
        let edges: [UInt8] = [0x20, 0x41, 0x7F, 0x80, 0x81, 0x82, 0x85, 0x8E, 0x8F, 0x90, 0x9C, 0x9F, 0xA0, 0xA5, 0xA6, 0xA8,
                              0xA9, 0xAA, 0xAE, 0xAF, 0xBF, 0xC0, 0xE2, 0xFF]
        for lead in UInt8(0x80)...0xFF {
            var bytes: [UInt8] = Array("[\"".utf8)
            for b1 in edges {
                for b2 in Self.thirdBytes {
                    for b3: UInt8 in [0x41, 0x80, 0xBF, 0xC0] { bytes += [lead, b1, b2, b3, UInt8(ascii: "x")] }
                    // Cut short by the end of the string, too.
                    bytes += [lead, b1, b2] + Array("\",\"".utf8)
                }
                bytes += [lead, b1] + Array("\",\"".utf8) + [lead] + Array("\",\"".utf8)
            }
            bytes += Array("\"]".utf8)
            Self.compare(bytes)
        }
    }
}
