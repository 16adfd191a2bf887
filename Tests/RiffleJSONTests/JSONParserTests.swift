import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// Hand-picked documents: what the parser accepts, what it rejects, and where it says the error is.
@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParser.Error) -> JSONValue { try JSONParser.parse(Data(text.utf8)) }
    private func parse(_ bytes: [UInt8]) throws(JSONParser.Error) -> JSONValue { try JSONParser.parse(bytes) }

    /// The error for `text`, or nil when it parses.
    private func failure(_ text: String) -> JSONParser.Error? { failure(Array(text.utf8)) }
    private func failure(_ bytes: [UInt8]) -> JSONParser.Error? {
        do { _ = try JSONParser.parse(bytes); return nil } catch { return error }
    }

    @Test func parsesScalarsAndContainers() throws {
        #expect(try parse("null") == .null)
        #expect(try parse(" true ") == .bool(true))
        #expect(try parse("-12.5e+3") == .number("-12.5e+3"))
        #expect(try parse(#"[1, "a", {"b": [false]}]"#)
            == .array([.number("1"), .string("a"), .object(JSONObject([("b", .array([.bool(false)]))]))]))
    }

    @Test func keepsMembersInDocumentOrder() throws {
        let object = try #require(try parse(#"{"z":1,"a":2,"m":3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test func decodesEveryEscape() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u2014\uD83D\uDE00""#)
            == .string("\"\\/\u{8}\u{C}\n\r\tAé—😀"))
        #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try parse(#""\uffff\uFfFf""#) == .string("\u{FFFF}\u{FFFF}"))
    }

    @Test func keepsRawUnicodeAndEscapesAroundIt() throws {
        #expect(try parse("\"日本語 😀 e\u{301}\\n🇯🇵\"") == .string("日本語 😀 e\u{301}\n🇯🇵"))
        // Long enough to cross the eight-byte fast path several times, with escapes at odd offsets.
        let long = String(repeating: "abcdefg\\\"日本h", count: 40)
        #expect(try parse("\"\(long)\"") == .string(String(repeating: "abcdefg\"日本h", count: 40)))
    }

    /// An escaped surrogate without its pair (an emoji cut in two) costs one character: U+FFFD, counted.
    @Test(arguments: [
        (#""\uD800""#, "\u{FFFD}", 1), (#""\uDC00""#, "\u{FFFD}", 1), (#""ab\uD800x""#, "ab\u{FFFD}x", 1),
        (#""\uD800\u0041""#, "\u{FFFD}A", 1), (#""\uD800\uD800""#, "\u{FFFD}\u{FFFD}", 2), (#""\uDBFF\n""#, "\u{FFFD}\n", 1),
        (#""\uDFFF\uD800""#, "\u{FFFD}\u{FFFD}", 2), (#""\uD83D\uDE00 \uD83D""#, "😀 \u{FFFD}", 1),
    ] as [(String, String, Int)])
    func unpairedSurrogatesReadAsReplacementCharacters(text: String, value: String, replaced: Int) throws {
        let document = try JSONDocument(Data(text.utf8))
        #expect(document.root.value == .string(value))
        #expect(document.replacedCharacters == replaced)
        #expect(try JSONDocument(Data(text.utf8), validation: .structure).root.value == .string(value), "as the stored reading")
    }

    @Test func aBrokenEscapeAfterALoneSurrogateIsStillAnError() {
        #expect(failure(#""\uD800\uZZZZ""#)?.reason == "invalid \\u escape")
        #expect(failure(#""\uD800"#)?.reason == "unterminated string")
    }

    /// Invalid UTF-8 in a string costs one U+FFFD per maximal malformed subpart, exactly as
    /// `String(decoding:)` repairs it; outside a string it is still no JSON.
    @Test(arguments: [
        [0x22, 0xFF, 0x22],                    // never valid in UTF-8
        [0x22, 0x61, 0x80, 0x22],              // stray continuation byte
        [0x22, 0xC0, 0xAF, 0x22],              // overlong "/"
        [0x22, 0xE0, 0x80, 0xAF, 0x22],        // overlong, three bytes
        [0x22, 0xED, 0xA0, 0x80, 0x22],        // an encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xE2, 0x82, 0x22],              // sequence cut by the quote
        [0x22, 0xF0, 0x9F, 0x98, 0x22],        // an emoji cut short
        [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],  // lead byte out of range
        [0x22, 0xE6, 0x97, 0xA5, 0xFF, 0xE6, 0x9C, 0xAC, 0x5C, 0x6E, 0xC3, 0x22],  // 日, FF, 本, \n, a cut é
    ] as [[UInt8]])
    func invalidUTF8InAStringReadsAsReplacementCharacters(bytes: [UInt8]) throws {
        let document = try JSONDocument(Data(bytes))
        let repaired = String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self).replacingOccurrences(of: "\\n", with: "\n")
        #expect(document.root.value == .string(repaired))
        #expect(document.replacedCharacters == repaired.unicodeScalars.filter { $0 == "\u{FFFD}" }.count)
        #expect(document.replacedCharacters > 0)
    }

    @Test func invalidUTF8OutsideAStringIsAnError() {
        #expect(failure([0x5B, 0xC3, 0xA9, 0x5D])?.offset == 1)
        #expect(failure([0x7B, 0xFF, 0x7D])?.offset == 1)
    }

    @Test func rejectsRawControlCharactersInStrings() throws {
        #expect(failure("\"ab\u{1}\"")?.offset == 3)
        #expect(failure("\"a\tb\"")?.offset == 2)
        #expect(failure([0x22, 0x00, 0x22])?.offset == 1)
        #expect(try parse("\"\u{7F}\"") == .string("\u{7F}"))  // DEL is not a control character in JSON
    }

    @Test(arguments: [
        ("01", 1), ("-01", 2), ("00", 1), ("1.", 2), (".5", 0), ("-", 1), ("+1", 0), ("1e", 2), ("1e+", 3),
        ("0x10", 1), ("1.e3", 2), ("NaN", 0), ("Infinity", 0), ("-Infinity", 1), ("[01]", 2),
    ])
    func rejectsMalformedNumbersNearTheBadByte(text: String, offset: Int) {
        #expect(failure(text)?.offset == offset)
        #expect(JSONOracle.parse(Array(text.utf8)) == nil)
    }

    @Test func keepsNumberTextExactly() throws {
        #expect(try parse("-0") == .number("-0"))
        #expect(try parse("12345678901234567890123") == .number("12345678901234567890123"))
        #expect(try parse("1E-7") == .number("1E-7"))
    }

    /// JSONSerialization rejects numbers beyond Double's range; we keep their text, since the browser
    /// shows numbers as written, and `doubleValue` reads them as infinity.
    @Test func acceptsNumbersBeyondDoubleRange() throws {
        #expect(try parse("1e400") == .number("1e400"))
        #expect(try parse("-1e400").doubleValue == -.infinity)
        #expect(try parse(String(repeating: "9", count: 400)).doubleValue == .infinity)
        #expect(try parse("1e-400").doubleValue == 0)
        #expect(JSONOracle.parse(Array("1e400".utf8)) == nil)
    }

    @Test(arguments: [
        ("{} x", 3), ("[]]", 2), ("1 2", 2), ("nullx", 4), ("truex", 4), ("\"a\"\"b\"", 3), ("{}{}", 2), ("[1]\0", 3),
    ])
    func rejectsTrailingData(text: String, offset: Int) {
        let error = failure(text)
        #expect(error?.offset == offset)
        #expect(error?.reason == "unexpected data after the document")
    }

    @Test(arguments: [
        ("{\"a\":1,}", 7), ("[1,]", 3), ("[1 2]", 3), ("{\"a\" 1}", 5), ("{\"a\":}", 5), ("{1:2}", 1), ("[tru]", 4),
        ("[nul", 4), ("\"\\q\"", 1), ("\"\\u12G4\"", 5), ("{'a':1}", 1), ("[,1]", 1), ("]", 0),
    ])
    func pointsAtTheBadByte(text: String, offset: Int) {
        #expect(failure(text)?.offset == offset)
    }

    /// JSONSerialization accepts a trailing comma in arrays and objects; RFC 8259 does not, nor do we.
    @Test func rejectsTrailingCommasUnlikeTheOracle() {
        #expect(failure("[1,]") != nil)
        #expect(failure("{\"a\":1,}") != nil)
        #expect(JSONOracle.parse(Array("[1,]".utf8)) != nil)
    }

    @Test func skipsOneLeadingByteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try parse(bom + Array("{\"a\":1}".utf8)) == .object(JSONObject([("a", .number("1"))])))
        #expect(try parse(bom + Array(" 1 ".utf8)) == .number("1"))
        #expect(failure(bom)?.offset == 3)
        #expect(failure(bom + bom + Array("1".utf8))?.offset == 3)
        #expect(failure(Array("[1,".utf8) + bom + Array("2]".utf8))?.offset == 3)
        #expect(failure([0xFE, 0xFF, 0x00, 0x31])?.offset == 0)  // UTF-16 is not read
    }

    @Test func rejectsEmptyAndBlankInput() {
        #expect(failure([])?.offset == 0)
        #expect(failure(" \n\t\r ")?.offset == 5)
        #expect(failure(Data()) != nil)
    }

    private func failure(_ data: Data) -> JSONParser.Error? {
        do { _ = try JSONParser.parse(data); return nil } catch { return error }
    }

    @Test func acceptsOnlyJSONWhitespace() throws {
        #expect(try parse(" \t\n\r[ \t\n\r1 \t\n\r, \t\n\r{ \t\n\r\"a\" \t\n\r: \t\n\r2 \t\n\r} \t\n\r] \t\n\r")
            == .array([.number("1"), .object(JSONObject([("a", .number("2"))]))]))
        #expect(failure("\u{C}1")?.offset == 0)          // form feed
        #expect(failure("\u{B}1")?.offset == 0)          // vertical tab
        #expect(failure("\u{A0}1")?.offset == 0)         // no-break space
        #expect(failure("[1,\u{2028}2]")?.offset == 3)  // line separator
    }

    @Test func keepsDuplicateKeysAndLooksUpTheLast() throws {
        let value = try parse(#"{"a":1,"b":0,"a":2}"#)
        #expect(value.objectValue?.keys == ["a", "b", "a"])
        #expect(value["a"] == .number("2"))
        // The oracle agrees on the value it keeps.
        let oracle = JSONOracle.parse(Array(#"{"a":1,"b":0,"a":2}"#.utf8)) as? [String: Any]
        #expect((oracle?["a"] as? NSNumber)?.intValue == 2)
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        for depth in [500, JSONParser.maxDepth] {
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(throws: Never.self) { try parse(arrays) }
            let objects = String(repeating: "{\"k\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
            #expect(throws: Never.self) { try parse(objects) }
        }
    }

    @Test(arguments: [JSONParser.maxDepth + 1, 1_000, 100_000])
    func rejectsDeeperNestingCleanly(depth: Int) {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = failure(arrays)
        #expect(error?.offset == JSONParser.maxDepth)
        #expect(error?.reason.hasPrefix("nesting deeper") == true)
        let mixed = String(repeating: "[{\"k\":", count: depth / 2 + 1)
        // Each `[{"k":` is six bytes and two levels: level 513 opens at the 257th group.
        #expect(failure(mixed)?.offset == JSONParser.maxDepth / 2 * 6)
    }

    @Test func errorDescriptionNamesTheOffset() {
        #expect(failure("[1,]")?.description == "invalid JSON at byte 3: unexpected character")
    }
}
