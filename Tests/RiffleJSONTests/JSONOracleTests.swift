import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// JSONParser against Foundation's JSONSerialization on generated documents.
///
/// Known, deliberate disagreements (each has its own test in JSONParserTests): the oracle accepts
/// trailing commas and rejects numbers beyond Double's range; we do the opposite.
@Suite struct JSONOracleTests {
    @Test(arguments: 0..<8)
    func generatedDocumentsMatchTheOracle(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: seed)
        for _ in 0..<250 {
            let text = generator.document()
            let bytes = Array(text.utf8)
            let ours = try JSONParser.parse(bytes)
            let theirs = try #require(JSONOracle.parse(bytes), "oracle rejected \(text.debugDescription)")
            let difference = JSONOracle.difference(ours, theirs)
            #expect(difference == nil, "\(text.debugDescription)")
        }
    }

    /// Every proper prefix of a container document is incomplete: each must throw, at an offset
    /// inside the prefix, and never crash.
    @Test(arguments: 0..<4)
    func everyTruncationThrowsWithinTheInput(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: 100 + seed)
        var checked = 0
        while checked < 20 {
            let text = generator.value(depth: 4)
            guard text.hasPrefix("{") || text.hasPrefix("[") else { continue }
            checked += 1
            let bytes = Array(text.utf8)
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                do {
                    _ = try JSONParser.parse(prefix)
                    Issue.record("prefix of \(length) bytes parsed: \(text.debugDescription)")
                } catch {
                    #expect((0...length).contains(error.offset), "\(error) for \(length) bytes of \(text.debugDescription)")
                }
            }
        }
    }

    /// Single-byte edits of valid documents: we must accept exactly what the oracle accepts, except
    /// for its documented leniencies, and our errors must fall inside the input.
    @Test(arguments: 0..<4)
    func mutatedDocumentsAgreeWithTheOracle(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: 1_000 + seed)
        var rng = SeededGenerator(seed: seed)
        let alphabet = Array("{}[],:\" \\/0123456789-+.eEtrufalsnbu\u{1}".utf8) + [0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        for _ in 0..<400 {
            let bytes = JSONMutation.edit(Array(generator.document(maxDepth: 3).utf8), alphabet: alphabet, using: &rng)
            let theirs = JSONOracle.parse(bytes)
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            do {
                let ours = try JSONParser.parse(bytes)
                let replaced = (try? JSONDocument(Data(bytes)))?.replacedCharacters ?? 0
                if let theirs {
                    #expect(JSONOracle.difference(ours, theirs) == nil, "\(text)")
                } else if replaced > 0 {
                    // Bytes in a string that are not text read as U+FFFD: the oracle agrees on the
                    // text repaired the same way (String(decoding:)), which it accepts.
                    let repaired = JSONOracle.parse(Self.repaired(bytes))
                    #expect(repaired.map { JSONOracle.difference(ours, $0) == nil } == true, "\(text)")
                } else {
                    #expect(Self.hasNumberBeyondDouble(ours), "oracle rejects, we accept: \(text)")
                }
            } catch {
                #expect((0...bytes.count).contains(error.offset))
                if theirs != nil {
                    #expect(Self.hasTrailingComma(bytes), "we reject (\(error)), oracle accepts: \(text)")
                }
            }
        }
    }

    /// Bytes that are not text put in a string of a generated document: invalid UTF-8 and escaped
    /// surrogates without their pair. Each costs what it replaces (one U+FFFD per maximal malformed
    /// subpart), and the document reads as the oracle reads it with `\uFFFD` written there instead.
    @Test(arguments: 0..<4)
    func brokenTextCostsOneCharacterAndOtherwiseMatchesTheOracle(seed: UInt64) throws {
        let breakages: [(bytes: [UInt8], replaced: Int)] = [
            ([0xFF], 1), ([0x80], 1), ([0xC3], 1), ([0xE2, 0x82], 1), ([0xF0, 0x9F, 0x98], 1), ([0xED, 0xA0, 0x80], 3),
            ([0xC0, 0xAF], 2), ([0xF4, 0x90, 0x80, 0x80], 4), (Array(#"\ud83d"#.utf8), 1), (Array(#"\uDC00"#.utf8), 1),
            (Array(#"\ud83d\ud83d"#.utf8), 2), (Array(#"\uDBFF\u0041"#.utf8), 1),
        ]
        var generator = JSONDocumentGenerator(seed: 2_000 + seed)
        var rng = SeededGenerator(seed: seed)
        var checked = 0
        while checked < 200 {
            let bytes = Array(generator.document(maxDepth: 3).utf8)
            // The first quote of a document always opens a string: the breakage goes at its start.
            guard let quote = bytes.firstIndex(of: UInt8(ascii: "\"")) else { continue }
            checked += 1
            let breakage = breakages[Int(rng.next() % UInt64(breakages.count))]
            var broken = bytes
            broken.insert(contentsOf: breakage.bytes, at: quote + 1)
            var repaired = bytes
            if breakage.bytes == Array(#"\uDBFF\u0041"#.utf8) {
                repaired.insert(contentsOf: Array(#"\uFFFD\u0041"#.utf8), at: quote + 1)
            } else {
                repaired.insert(contentsOf: Array(String(repeating: #"\uFFFD"#, count: breakage.replaced).utf8), at: quote + 1)
            }
            let text = String(decoding: broken, as: UTF8.self).debugDescription
            let document = try JSONDocument(Data(broken))
            #expect(document.replacedCharacters == breakage.replaced, "\(text)")
            let theirs = try #require(JSONOracle.parse(repaired), "oracle rejected \(String(decoding: repaired, as: UTF8.self))")
            #expect(JSONOracle.difference(document.root.value, theirs) == nil, "\(text)")
            #expect(try JSONDocument(Data(broken), validation: .structure).root.value == document.root.value, "the stored reading: \(text)")
        }
    }

    /// `bytes` as text the oracle accepts, each piece that is not text replaced as we read it: invalid
    /// UTF-8 by `String(decoding:)`, an escaped surrogate without its pair by `\uFFFD`.
    static func repaired(_ bytes: [UInt8]) -> [UInt8] {
        let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
        func unit(at i: Int) -> UInt32? {
            guard i + 6 <= text.count, text[i] == UInt8(ascii: "\\"), text[i + 1] == UInt8(ascii: "u") else { return nil }
            return UInt32(String(decoding: text[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
        }
        var out: [UInt8] = []
        var i = 0
        while i < text.count {
            guard text[i] == UInt8(ascii: "\\"), i + 1 < text.count else { out.append(text[i]); i += 1; continue }
            guard let value = unit(at: i) else { out += text[i...(i + 1)]; i += 2; continue }
            if (0xD800...0xDBFF).contains(value), let low = unit(at: i + 6), (0xDC00...0xDFFF).contains(low) {
                out += text[i..<(i + 12)]
                i += 12
            } else {
                out += (0xD800...0xDFFF).contains(value) ? Array(#"\uFFFD"#.utf8) : Array(text[i..<(i + 6)])
                i += 6
            }
        }
        return out
    }

    private static func hasNumberBeyondDouble(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let text): Double(text)?.isFinite == false
        case .array(let elements): elements.contains(where: hasNumberBeyondDouble)
        case .object(let object): object.members.contains { hasNumberBeyondDouble($0.value) }
        default: false
        }
    }

    /// A comma followed, after whitespace, by a closing bracket (outside strings: good enough here,
    /// since the mutation is a single byte).
    private static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        let significant = bytes.filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return zip(significant, significant.dropFirst()).contains { $0 == UInt8(ascii: ",") && ($1 == UInt8(ascii: "]") || $1 == UInt8(ascii: "}")) }
    }
}
