import Foundation
import RiffleKit
import Testing
@testable import riffle

/// The editor behind every change riffle makes to feeds.json: one member changes, every other byte
/// stays as the user wrote it.
@Suite("JSONTextEditor: one member changed, the rest byte for byte")
struct JSONTextEditorTests {
    func edited(_ text: String, _ change: (inout JSONTextEditor) throws -> Void) throws -> String {
        var editor = try JSONTextEditor(Data(text.utf8))
        try change(&editor)
        return String(decoding: editor.bytes, as: UTF8.self)
    }

    /// A file as people write it: four-space indents, a one-line object, odd spacing, escapes and a
    /// number spelled its own way, none of which an edit elsewhere may touch.
    static let file = """
    {
        "feeds": {
            "work":   {"url": "https://w.example.com/?page={page}", "maxAge": 1.0e2},
            "hn\\u0021": {
                "description": "tab\\there \\"quoted\\" \\u00e9",
                "url": "https://hn.example.com/{page}"
            }
        }
    }

    """

    @Test func settingAMemberReplacesOnlyItsValue() throws {
        let result = try edited(Self.file) { try $0.set(["feeds", "work", "maxAge"], to: .string("15m")) }
        #expect(result == Self.file.replacingOccurrences(of: "\"maxAge\": 1.0e2", with: "\"maxAge\": \"15m\""))
    }

    @Test func aMemberIsAddedAfterTheLastWithItsSiblingsIndent() throws {
        let result = try edited(Self.file) {
            try $0.set(["feeds", "rust"], to: .object(JSONObject([("preset", "reddit:rust"), ("fields", .object(JSONObject([("title", "data.title")])))])))
        }
        #expect(result == """
        {
            "feeds": {
                "work":   {"url": "https://w.example.com/?page={page}", "maxAge": 1.0e2},
                "hn\\u0021": {
                    "description": "tab\\there \\"quoted\\" \\u00e9",
                    "url": "https://hn.example.com/{page}"
                },
                "rust": {
                    "preset": "reddit:rust",
                    "fields": {
                        "title": "data.title"
                    }
                }
            }
        }

        """)
    }

    @Test func aMemberAddedToAOneLineObjectStaysOnItsLine() throws {
        let result = try edited(Self.file) { try $0.set(["feeds", "work", "fields", "title"], to: "name") }
        #expect(result == Self.file.replacingOccurrences(of: "\"maxAge\": 1.0e2}", with: "\"maxAge\": 1.0e2, \"fields\": {\"title\": \"name\"}}"))
    }

    @Test func aKeyWrittenWithEscapesIsFoundByWhatItReads() throws {
        let result = try edited(Self.file) { try $0.set(["feeds", "hn!", "url"], to: "https://other.example.com/{page}") }
        #expect(result == Self.file.replacingOccurrences(of: "https://hn.example.com/{page}", with: "https://other.example.com/{page}"))
    }

    @Test func anEmptyObjectGetsItsMemberOnALineOfItsOwn() throws {
        let result = try edited("{\n  \"feeds\": {}\n}\n") { try $0.set(["feeds", "a"], to: "hn") }
        #expect(result == "{\n  \"feeds\": {\n    \"a\": \"hn\"\n  }\n}\n")
        let inline = try edited(#"{"feeds": { }}"#) { try $0.set(["feeds", "a"], to: "hn") }
        #expect(inline == #"{"feeds": {"a": "hn"}}"#)
        let tight = try edited(#"{"a":1}"#) { try $0.set(["b"], to: 2) }
        #expect(tight == #"{"a":1, "b":2}"#)
    }

    @Test func aBlankFileBecomesAnIndentedObject() throws {
        for blank in ["", "\n", "  \n\t"] {
            let result = try edited(blank) { try $0.set(["feeds", "mine"], to: .object(JSONObject([("url", "https://x.example.com/{page}")]))) }
            #expect(result == "{\n  \"feeds\": {\n    \"mine\": {\n      \"url\": \"https://x.example.com/{page}\"\n    }\n  }\n}\n")
        }
    }

    @Test func removingTakesTheMemberAndOneComma() throws {
        let three = "{\"feeds\": {\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"c\": {\"d\": 4}\n}}"
        #expect(try edited(three) { $0.remove(["feeds", "a"]) } == "{\"feeds\": {\n  \"b\": [2, 3],\n  \"c\": {\"d\": 4}\n}}")
        #expect(try edited(three) { $0.remove(["feeds", "b"]) } == "{\"feeds\": {\n  \"a\": 1,\n  \"c\": {\"d\": 4}\n}}")
        #expect(try edited(three) { $0.remove(["feeds", "c"]) } == "{\"feeds\": {\n  \"a\": 1,\n  \"b\": [2, 3]\n}}")
        #expect(try edited(three) { $0.remove(["feeds", "c", "d"]) } == "{\"feeds\": {\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"c\": {}\n}}")
        #expect(try edited(#"{"a": 1, "b": 2}"#) { $0.remove(["a"]) } == #"{"b": 2}"#)
        // Nothing there: nothing changes.
        var editor = try JSONTextEditor(Data(three.utf8))
        let removed = editor.remove(["feeds", "x"]) || editor.remove(["feeds", "a", "x"])
        #expect(!removed && String(decoding: editor.bytes, as: UTF8.self) == three)
    }

    @Test func aKeyWrittenTwiceIsRemovedAndRenamedEachTime() throws {
        let twice = #"{"a": 1, "b": 2, "a": 3}"#
        #expect(try edited(twice) { $0.remove(["a"]) } == #"{"b": 2}"#)
        #expect(try edited(twice) { $0.rename(["a"], to: "z") } == #"{"z": 1, "b": 2, "z": 3}"#)
        // Set changes the last, which readers take.
        #expect(try edited(twice) { try $0.set(["a"], to: 4) } == #"{"a": 1, "b": 2, "a": 4}"#)
    }

    @Test func renamingKeepsTheValueAndItsPlace() throws {
        let result = try edited(Self.file) { editor in _ = editor.rename(["feeds", "work"], to: "job") }
        #expect(result == Self.file.replacingOccurrences(of: "\"work\":", with: "\"job\":"))
    }

    @Test(arguments: ["quote\"d", "back\\slash", "line\nbreak", "tab\t", "bell\u{07}", "sep\u{2028}", "é日本🎉", "dot.ted"])
    func namesAndValuesAreEscapedAndReadBackTheSame(text: String) throws {
        var editor = try JSONTextEditor(Data(Self.file.utf8))
        try editor.set(["feeds", text], to: .object(JSONObject([("description", .string(text))])))
        let value = try JSONParser.parse(editor.data)
        #expect(value["feeds"]?[text]?["description"] == .string(text))
        // One line each: no raw line break or control character was written.
        #expect(!editor.bytes.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x20 })
        #expect(editor.bytes.filter { $0 == 0x0A }.count == Self.file.utf8.filter { $0 == 0x0A }.count + 3)
        let renamed = editor.rename(["feeds", text], to: text + "2")
        #expect(renamed)
        #expect(try JSONParser.parse(editor.data)["feeds"]?[text + "2"]?["description"] == .string(text))
    }

    @Test func whatIsNotAnObjectIsRefusedSayingWhat() {
        #expect(throws: JSONTextEditor.Problem.notAnObject(kind: "an array")) { try JSONTextEditor(Data("[1, 2]".utf8)) }
        #expect(throws: JSONTextEditor.Problem.notAnObject(kind: "a string")) { try JSONTextEditor(Data(#""feeds""#.utf8)) }
        #expect(throws: JSONTextEditor.Problem.self) { try JSONTextEditor(Data("{\n\"feeds\": {,}\n}".utf8)) }
        do {
            _ = try JSONTextEditor(Data("{\n\"feeds\": {,}\n}".utf8))
        } catch {
            #expect(error.description.hasPrefix("line 2: not valid JSON: "))
        }
        var editor = try? JSONTextEditor(Data(#"{"feeds": {"hn": "hn"}}"#.utf8))
        #expect(throws: JSONTextEditor.Problem.notAnObjectAt(path: ["feeds", "hn"], kind: "a string")) {
            try editor?.set(["feeds", "hn", "fields"], to: .object(JSONObject()))
        }
    }

    @Test func aByteOrderMarkAndCarriageReturnsStay() throws {
        let text = "\u{FEFF}{\r\n  \"feeds\": {\r\n    \"a\": 1\r\n  }\r\n}\r\n"
        let result = try edited(text) { try $0.set(["feeds", "a"], to: 2) }
        #expect(result == text.replacingOccurrences(of: "\"a\": 1", with: "\"a\": 2"))
    }

    /// Against a model: random edits of random documents read back as the same edits of the value.
    @Test func randomEditsReadBackAsTheModelSays() throws {
        var random = SeededRandom(seed: 22)
        for round in 0..<300 {
            var model = Self.randomObject(&random, depth: 0)
            let pretty = random.next() % 2 == 0
            var editor = try JSONTextEditor(Data((pretty ? JSONFormatterLike.pretty(model) : JSONFormatterLike.compact(model)).utf8))
            for _ in 0..<4 {
                let keys = model.objectValue?.keys ?? []
                let key = keys.isEmpty || random.next() % 3 == 0 ? "k\(random.next() % 5)" : keys[Int(random.next() % UInt64(keys.count))]
                switch random.next() % 3 {
                case 0:
                    let value: JSONValue = random.next() % 2 == 0 ? .string("v\(round)") : .object(JSONObject([("n", .number("1"))]))
                    try editor.set([key], to: value)
                    model = Self.setting(model, key, value)
                case 1:
                    editor.remove([key])
                    model = .object(JSONObject(model.objectValue!.members.filter { $0.key != key }))
                default:
                    let fresh = "r\(random.next() % 5)"
                    editor.rename([key], to: fresh)
                    model = .object(JSONObject(model.objectValue!.members.map { $0.key == key ? (fresh, $0.value) : $0 }))
                }
                #expect(try JSONParser.parse(editor.data) == model, "round \(round)")
            }
        }
    }

    static func setting(_ object: JSONValue, _ key: String, _ value: JSONValue) -> JSONValue {
        var members = object.objectValue!.members
        if let i = members.lastIndex(where: { $0.key == key }) { members[i].value = value } else { members.append((key, value)) }
        return .object(JSONObject(members))
    }

    static func randomObject(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        let count = Int(random.next() % 4)
        return .object(JSONObject((0..<count).map { i in
            let value: JSONValue = switch random.next() % 4 {
            case 0 where depth < 2: randomObject(&random, depth: depth + 1)
            case 1: .array([.number("1"), .string("a,b}")])
            case 2: .string("x\"}{,\(i)")
            default: .number("-0.5e3")
            }
            return ("k\(i)", value)
        }))
    }
}

/// JSON text of both layouts, for the model test.
enum JSONFormatterLike {
    static func compact(_ value: JSONValue) -> String { String(decoding: JSONWriter.data(value), as: UTF8.self) }

    static func pretty(_ value: JSONValue, indent: String = "") -> String {
        guard case .object(let object) = value, object.count > 0 else { return compact(value) }
        let inner = indent + "\t"
        return "{\n" + object.members.map { inner + compact(.string($0.key)) + " : " + pretty($0.value, indent: inner) }.joined(separator: ",\n")
            + "\n" + indent + "}"
    }
}

/// A small deterministic generator (SplitMix64), so a failure repeats.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
