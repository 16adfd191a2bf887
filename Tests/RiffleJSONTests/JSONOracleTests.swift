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
                if let theirs {
                    #expect(JSONOracle.difference(ours, theirs) == nil, "\(text)")
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
