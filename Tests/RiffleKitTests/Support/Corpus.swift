import Foundation
import Testing

/// The corpus of real responses riffle was not tuned on (Fixtures/corpus, see its README): two halves split
/// by API, and a fresh held-out set gathered after the held-out half had been read, each with an
/// expectations.json that says, for one item of every file, what a person reads there.
enum Corpus {
    /// A folder of the corpus: the two halves, then the fresh set (gathered 2026-12-03, all of it held out).
    enum Half: String, CaseIterable, Sendable {
        case tune, heldout, fresh
    }

    /// One file's expectation, as written in its half's expectations.json.
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var api: String
        var kind: String
        /// The request the response answers; relative links resolve against it.
        var url: String
        /// False for an answer about one thing, which riffle should refuse to list.
        var feed: Bool
        /// Dotted path to the item array ("" for a top-level array; a number indexes an array).
        var items: String?
        var count: Int?
        /// The judged item's index.
        var item: Int?
        var headline: Answer
        var link: Answer
        var author: Answer
        var time: Answer
        var note: String?

        var testDescription: String { file }
    }

    /// The acceptable answers for one field: none means the item has no such field.
    struct Answer: Decodable, Sendable, Equatable {
        var accepted: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                accepted = []
            } else if let one = try? container.decode(String.self) {
                accepted = [one]
            } else {
                accepted = try container.decode([String].self)
            }
        }
    }

    static func folder(_ half: Half) throws -> URL {
        let corpus = try #require(Bundle.module.url(forResource: "corpus", withExtension: nil, subdirectory: "Fixtures"))
        return corpus.appendingPathComponent(half.rawValue, isDirectory: true)
    }

    static func entries(_ half: Half) throws -> [Entry] {
        let data = try Data(contentsOf: folder(half).appendingPathComponent("expectations.json"))
        return try JSONDecoder().decode([Entry].self, from: data)
    }

    static func data(_ entry: Entry, in half: Half) throws -> Data {
        try Data(contentsOf: folder(half).appendingPathComponent(entry.file))
    }

    /// The response files of one half (everything but expectations.json).
    static func responseFiles(_ half: Half) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder(half).path)
            .filter { $0.hasSuffix(".json") && $0 != "expectations.json" }
            .sorted()
    }

    /// Follows a dotted path ("response.results", "groups.0.items", "") from a parsed JSON value.
    static func value(at path: String, in root: Any) -> Any? {
        var current: Any? = root
        for key in path.split(separator: ".", omittingEmptySubsequences: true).map(String.init) {
            if let array = current as? [Any], let index = Int(key) {
                current = array.indices.contains(index) ? array[index] : nil
            } else {
                current = (current as? [String: Any])?[key]
            }
        }
        return current
    }
}
