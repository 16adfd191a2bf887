import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// `JSONLineWriter`, what `riffle dump` prints items with: a value copied from its document's bytes
/// reads back (strictly) as the value the document holds, on one line, with nothing a terminal would
/// act on; the escapes it adds are the ones JSON and the terminal need, and no others.
@Suite struct JSONLineWriterTests {
    /// The document's root written by the writer, as text.
    static func written(_ bytes: [UInt8], validation: JSONDocument.Validation = .full) throws -> String {
        let document = try JSONDocument(Data(bytes), validation: validation)
        var writer = JSONLineWriter()
        writer.write(document.root)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Scalars a terminal would act on or that reorder or break a line, written out here.
    static func dangerous(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { v in
            v < 0x20 || (0x7F...0x9F).contains(v) || [0x61C, 0x200E, 0x200F].contains(v)
                || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        }
    }

    /// What `bytes` holds, written, read back strictly: the same value, valid UTF-8, nothing dangerous.
    static func check(_ bytes: [UInt8], validation: JSONDocument.Validation, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let document = try? JSONDocument(Data(bytes), validation: validation) else { return }
        var writer = JSONLineWriter()
        writer.write(document.root)
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        #expect(String(validating: writer.bytes, as: UTF8.self) != nil, "not UTF-8 from \(text)", sourceLocation: sourceLocation)
        let line = String(decoding: writer.bytes, as: UTF8.self)
        #expect(dangerous(line).isEmpty, "\(line.debugDescription) from \(text)", sourceLocation: sourceLocation)
        #expect((try? JSONParser.parse(writer.bytes)) == document.root.value, "\(line.debugDescription) from \(text)",
                sourceLocation: sourceLocation)
        // The same value built first and written: reads back alike.
        var built = JSONLineWriter()
        built.write(document.root.value)
        #expect((try? JSONParser.parse(built.bytes)) == document.root.value, "\(text)", sourceLocation: sourceLocation)
        #expect(dangerous(String(decoding: built.bytes, as: UTF8.self)).isEmpty, "\(text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<6)
    func generatedDocumentsReadBackAsTheyWere(seed: UInt64) {
        var generator = JSONDocumentGenerator(seed: 11_000 + seed)
        for _ in 0..<250 {
            let bytes = Array(generator.document().utf8)
            Self.check(bytes, validation: .full)
            Self.check(bytes, validation: .structure)
        }
    }

    /// Damaged bytes as a stored page may hold them (raw controls, invalid UTF-8, lone surrogates,
    /// malformed escapes): what reads leniently is written as it reads, and the line is still safe.
    @Test(arguments: 0..<6)
    func damagedStoredDocumentsAreWrittenAsTheyRead(seed: UInt64) {
        var generator = JSONDocumentGenerator(seed: 13_000 + seed)
        var rng = SeededGenerator(seed: 17 + seed)
        for _ in 0..<400 {
            var bytes = Array(generator.document(maxDepth: 3).utf8)
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty { bytes = JSONMutation.edit(bytes, using: &rng) }
            Self.check(bytes, validation: .structure)
            Self.check(bytes, validation: .full)
        }
    }

    @Test func rawCharactersATerminalWouldActOnAreEscapedInCapitals() throws {
        let raw = "c1 \u{9B}2J nel\u{85} \u{202E}rev\u{202C} \u{2067}iso\u{2069} rlm\u{200F} alm\u{61C} line\u{2028}para\u{2029}"
        let text = try Self.written(Array("{\"t\":\"\(raw)\",\"é\u{85}\":1}".utf8))
        #expect(text == #"{"t":"c1 \u009B2J nel\u0085 \u202Erev\u202C \u2067iso\u2069 rlm\u200F alm\u061C line\u2028para\u2029","é\u0085":1}"#)
    }

    @Test func theServersBytesAreCopiedEscapesAsWrittenAndSpaceBetweenValuesDropped() throws {
        let source = #" { "a" : [ 1.50e+3 , -0 , true , false , null ] ,"#
            + #" "b" : "caf\u00e9 \/ \"q\" \\ \n \ud83d\ude00 東京 😀 \u001b" , "a" : {} } "#
        #expect(try Self.written(Array(source.utf8))
            == #"{"a":[1.50e+3,-0,true,false,null],"b":"caf\u00e9 \/ \"q\" \\ \n \ud83d\ude00 東京 😀 \u001b","a":{}}"#)
    }

    @Test func aStoredPagesRawControlsAreEscapedAsJSONRequires() throws {
        let bytes: [UInt8] = Array(#"["a"#.utf8) + [0x09, 0x0A, 0x0D, 0x1B, 0x7F] + Array(#"b"]"#.utf8)
        #expect(try Self.written(bytes, validation: .structure) == #"["a\t\n\r\u001b\u007fb"]"#)
    }

    @Test func textThatIsNotTextIsWrittenAsItReads() throws {
        // An invalid byte, a lone surrogate escape, and (stored) an unknown escape: U+FFFD each.
        let bytes: [UInt8] = Array(#"["x"#.utf8) + [0xFF] + Array(#"y","\ud83d z"]"#.utf8)
        #expect(try Self.written(bytes) == "[\"x\u{FFFD}y\",\"\u{FFFD} z\"]")
        #expect(try Self.written(Array(#"["a\qb"]"#.utf8), validation: .structure) == "[\"a\u{FFFD}b\"]")
    }

    @Test func builtValuesAreWrittenWithTheSameEscapes() {
        var writer = JSONLineWriter()
        writer.write(["k\"": "a\u{1B}\u{85}\u{2028}\\", "n": 1.5, "l": [true, .null]])
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"k\"":"a\u001b\u0085\u2028\\","n":1.5,"l":[true,null]}"#)
    }
}

extension JSONLineWriterTests {
    /// The output grows by doubling, however long the strings: growing to exactly what each string
    /// needed copied all that was written before once per string (quadratic in the page's size).
    @Test func theOutputGrowsByDoublingForLongStrings() throws {
        let long = String(repeating: "t", count: 10_000)
        let page = "[" + (0..<500).map { _ in "\"\(long)\"" }.joined(separator: ",") + "]"
        let document = try JSONDocument(Data(page.utf8))
        var writer = JSONLineWriter()
        var capacities: Set<Int> = []
        document.withReader { r in
            r.forEachElement(of: 0) { element in
                writer.write(JSONNode(document: document, index: element))
                capacities.insert(writer.bytes.capacity)
            }
        }
        #expect(writer.bytes.count >= 500 * 10_002)
        // 5 MB from the first string's 10 KB: about nine doublings.
        #expect(capacities.count <= 16, "the output grew \(capacities.count) times for 500 strings")
    }
}
