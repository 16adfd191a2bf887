import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// `JSONDocument` (the lazy tape) against `JSONParser` (itself checked against Foundation) and
/// Foundation's JSONSerialization directly: same values, same errors at the same offsets.
@Suite struct JSONDocumentTests {
    /// The tape's answer in the parser's terms: the whole value, or the error.
    static func viaTape(_ bytes: [UInt8]) -> Result<JSONValue, JSONParser.Error> {
        do throws(JSONParser.Error) { return .success(try JSONDocument(Data(bytes)).root.value) } catch { return .failure(error) }
    }

    static func viaParser(_ bytes: [UInt8]) -> Result<JSONValue, JSONParser.Error> {
        do throws(JSONParser.Error) { return .success(try JSONParser.parse(bytes)) } catch { return .failure(error) }
    }

    @Test(arguments: 0..<8)
    func generatedDocumentsMatchTheParserAndTheOracle(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: 5_000 + seed)
        for _ in 0..<250 {
            let text = generator.document()
            let bytes = Array(text.utf8)
            let ours = try Self.viaTape(bytes).get()
            #expect(Self.viaParser(bytes) == .success(ours), "\(text.debugDescription)")
            let theirs = try #require(JSONOracle.parse(bytes))
            #expect(JSONOracle.difference(ours, theirs) == nil, "\(text.debugDescription)")
        }
    }

    /// Hostile bytes: single-byte edits, truncations and a list of classic traps must fail (or
    /// succeed) exactly as the parser does.
    @Test(arguments: 0..<4)
    func mutatedAndTruncatedDocumentsFailLikeTheParser(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: 7_000 + seed)
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let bytes = JSONMutation.edit(Array(generator.document(maxDepth: 3).utf8), using: &rng)
            #expect(Self.viaTape(bytes) == Self.viaParser(bytes), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            let cut = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            #expect(Self.viaTape(cut) == Self.viaParser(cut), "\(String(decoding: cut, as: UTF8.self).debugDescription)")
        }
    }

    @Test(arguments: [
        "", " ", "\u{FEFF}", "\u{FEFF}[1]", "[1,]", "{\"a\":1,}", "[01]", "[-]", "[1.]", "[1e]", "[.5]", "\"\\ud800\"",
        "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\x\"", "\"\\u12\"", "[1] [2]", "{\"a\" 1}", "{1:2}", "[tru]", "nul",
        "\"\u{01}\"", "{\"a\":{\"b\":[}}", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512), "{\"a\":1,\"a\":2}", "1e999",
    ])
    func classicTraps(text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.viaTape(bytes) == Self.viaParser(bytes))
    }

    @Test func invalidUTF8AndOverlongsFailLikeTheParser() {
        let cases: [[UInt8]] = [[0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
                                [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xF0, 0x9F, 0x98]]
        for bytes in cases { #expect(Self.viaTape(bytes) == Self.viaParser(bytes), "\(bytes)") }
    }

    /// The tape reads strings a word (8 bytes) at a time: put every awkward piece at every offset
    /// of a word, and across the end of one.
    @Test func escapesAndSequencesAtEveryOffsetOfAWord() {
        let pieces: [[UInt8]] = [
            Array("\\\"".utf8), Array("\\\\".utf8), Array("\\u00e9".utf8), Array("\\uD83D\\uDE00".utf8), Array("\\uD83D".utf8),
            Array("\\u12".utf8), Array("\\x".utf8), Array("é".utf8), Array("東".utf8), Array("😀".utf8), [0xC3], [0xE6, 0x9D],
            [0xED, 0xA0, 0x80], [0x01], [0x7F], Array("\\".utf8), Array("#".utf8), [0x22, 0x23],
            // \u digits are checked four at a time: every edge of the hex ranges and of the surrogates.
            Array("\\uABCF".utf8), Array("\\uabcf".utf8), Array("\\u09Aa".utf8), Array("\\uD7FF".utf8), Array("\\uE000".utf8),
            Array("\\uDC00".utf8), Array("\\udbff\\udfff".utf8), Array("\\u/000".utf8), Array("\\u0:00".utf8), Array("\\u00@0".utf8),
            Array("\\u000G".utf8), Array("\\u`000".utf8), Array("\\u0g00".utf8), Array("\\u00\u{7F}0".utf8), [0x5C, 0x75, 0x30, 0xB0, 0x30, 0x30],
        ]
        for offset in 0..<17 {
            for piece in pieces {
                for tail in [[], Array("abc\\n".utf8), piece] {
                    let bytes = [0x22] + Array(repeating: UInt8(ascii: "a"), count: offset) + piece + tail + [0x22]
                    #expect(Self.viaTape(bytes) == Self.viaParser(bytes), "\(bytes)")
                    let unterminated = Array(bytes.dropLast())
                    #expect(Self.viaTape(unterminated) == Self.viaParser(unterminated), "\(unterminated)")
                }
            }
        }
    }

}
