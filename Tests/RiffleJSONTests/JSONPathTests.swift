import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleJSON

/// One dotted path for every reader: what a feed's `items` and `fields`, `dump --fields`, comment rules
/// and envelopes write reads the same place on a built value and on a document's tape.
@Suite struct JSONPathTests {
    @Test(arguments: [
        ("data.children", ["data", "children"]), ("a..b.", ["a", "b"]), ("", []), ("artists.0.name", ["artists", "0", "name"]),
        (#"@odata\.nextLink"#, ["@odata.nextLink"]), (#"a\\b.c"#, [#"a\b"#, "c"]), ("title.*.plain_text", ["title", "*", "plain_text"]),
        (#"ends\"#, [#"ends\"#]),
    ])
    func dottedTextSplitsAtUnescapedDots(text: String, components: [String]) {
        #expect(JSONPath(text).components == components)
    }

    @Test(arguments: [["@odata.nextLink"], [#"a\b"#, "c.d"], ["user", "login"], []])
    func theDescriptionReadsBackAsThePath(components: [String]) {
        let path = JSONPath(components: components)
        #expect(JSONPath(path.description) == path)
    }

    static let document = #"""
    {"user": {"login": "octo", "0": "zero"}, "artists": [{"name": "A"}, {"name": "B"}], "title": [{"plain_text": "Ri"}, {"x": 1},
     {"plain_text": "ffle"}], "@odata.nextLink": "https://x/2", "n": [[1, 2], [3]], "dup": 1, "dup": 2}
    """#

    @Test(arguments: [
        ("user.login", #""octo""#), ("user.0", #""zero""#), ("artists.1.name", #""B""#), ("artists.2.name", nil), ("artists.x", nil),
        ("title.*.plain_text", #"["Ri", "ffle"]"#), (#"@odata\.nextLink"#, #""https://x/2""#), ("n.0.1", "2"), ("dup", "2"),
        ("user.login.more", nil), ("", nil),
    ])
    func aBuiltValueAndTheTapeReadTheSamePlace(path: String, expected: String?) throws {
        let value = try JSONParser.parse(Data(Self.document.utf8))
        let found = value.value(at: JSONPath(path))
        if path.isEmpty { #expect(found == value) } else { #expect(found == expected.map { try! JSONParser.parse(Data($0.utf8)) }) }
        // The tape: the first value there (through `*`, the first element that has the rest).
        let document = try JSONDocument(Data(Self.document.utf8))
        let tape = document.withReader { r in r.value(0, at: JSONPath(path)).map { r.value($0) } }
        if case .array(let all)? = found, path.contains("*") { #expect(tape == all.first) } else { #expect(tape == found) }
    }

    @Test func everyValueThroughAStepIsVisitedInOrder() throws {
        let document = try JSONDocument(Data(Self.document.utf8))
        let texts = document.withReader { r in
            var texts: [String] = []
            r.forEachValue(0, at: "title.*.plain_text") { texts.append(r.string($0)) }
            return texts
        }
        #expect(texts == ["Ri", "ffle"])
    }

    @Test(arguments: 0..<4)
    func generatedDocumentsAgreeOnEveryPath(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: 7_000 + seed)
        for _ in 0..<40 {
            let text = generator.document()
            guard let value = try? JSONParser.parse(Data(text.utf8)), let document = try? JSONDocument(Data(text.utf8)) else { continue }
            for path in Self.paths(in: value, prefix: [], depth: 0) {
                let tape = document.withReader { r in r.value(0, at: path).map { r.value($0) } }
                #expect(tape == value.value(at: path), "\(path) in \(text)")
            }
        }
    }

    /// Every path to a value of `value`, keys and element numbers, a few levels down.
    static func paths(in value: JSONValue, prefix: [String], depth: Int) -> [JSONPath] {
        guard depth < 4 else { return [] }
        var found: [JSONPath] = [JSONPath(components: prefix)]
        switch value {
        case .object(let object):
            for (key, member) in object.members where !key.contains(".") && !key.contains("\\") && key != "*" {
                found += paths(in: member, prefix: prefix + [key], depth: depth + 1)
            }
        case .array(let elements):
            for (n, element) in elements.enumerated().prefix(3) { found += paths(in: element, prefix: prefix + [String(n)], depth: depth + 1) }
        default:
            break
        }
        return found
    }
}
