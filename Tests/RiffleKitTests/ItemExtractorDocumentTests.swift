import Foundation
import Testing
@testable import RiffleKit

/// `ItemExtractor.items(in: Data)` (the tape) must give exactly the items of the two-step path
/// `items(in: JSONParser.parse(data))`, fields included, on real shapes and generated pages.
@Suite struct ItemExtractorDocumentTests {
    static func both(_ data: Data) -> (tape: Result<[Item], RiffleError>, tree: Result<[Item], RiffleError>) {
        let tape: Result<[Item], RiffleError>
        do throws(RiffleError) { tape = .success(try ItemExtractor.items(in: data)) } catch { tape = .failure(error) }
        let tree: Result<[Item], RiffleError>
        do {
            tree = .success(try ItemExtractor.items(in: JSONParser.parse(data)))
        } catch let error as JSONParser.Error {
            tree = .failure(.invalidJSON(offset: error.offset, reason: error.reason))
        } catch {
            tree = .failure(error as! RiffleError)
        }
        return (tape, tree)
    }

    @Test(arguments: ["bare-array", "devto", "github-issues", "hn-algolia", "lobsters", "reddit-listing"])
    func realShapes(fixture: String) throws {
        let url = try #require(Bundle.module.url(forResource: fixture, withExtension: "json", subdirectory: "Fixtures"))
        let (tape, tree) = Self.both(try Data(contentsOf: url))
        #expect(tape == tree)
        #expect(try !tape.get().isEmpty)
    }

    @Test(arguments: [
        "{}", "[]", "{\"a\":1,\"b\":[1,2]}", "[1,2,{\"title\":\"x\"}]", "{\"x\":[{\"kind\":\"t3\",\"data\":{\"title\":\"r\"}}]}",
        "[{\"data\":{\"name\":\"only data\"}}]", "[{\"kind\":1,\"data\":2}]", "{\"a\":[{}],\"b\":[{},{}]}", "not json",
        "[{\"title\":\"\",\"body\":\"fallback\"}]", "[{\"ti\\u0074le\":\"escaped key\"}]", "[{\"title\":\"a\",\"title\":\"b\"}]",
        "[{\"score\":\"12\",\"points\":3,\"num_comments\":\"x\",\"created_at\":\"2024-05-01T12:30:00+02:00\"}]",
        "[{\"user\":{\"login\":\"octo\"},\"url\":\"ftp://x\",\"id\":12345678901234567890}]",
        "{\"\\u00e9\":[{\"t\":1}],\"e\\u0301\":[]}",
    ])
    func edgeShapes(text: String) {
        let (tape, tree) = Self.both(Data(text.utf8))
        #expect(tape == tree, "\(text)")
    }

    @Test(arguments: 0..<6)
    func generatedPages(seed: UInt64) {
        var generator = FeedPageGenerator(seed: seed)
        for _ in 0..<60 {
            let text = generator.page()
            let (tape, tree) = Self.both(Data(text.utf8))
            #expect(tape == tree, "\(text.debugDescription)")
        }
    }
}

/// Feed-like pages: item objects whose keys come from the extractor's vocabulary (so every rule
/// fires), with values of every kind, nested users, wrappers and duplicates.
struct FeedPageGenerator {
    var values: JSONDocumentGenerator
    var rng: SeededGenerator

    init(seed: UInt64) {
        values = JSONDocumentGenerator(seed: 9_000 + seed)
        rng = SeededGenerator(seed: 90 + seed)
    }

    static let keys = ItemExtractor.titleKeys + ItemExtractor.idKeys + ItemExtractor.urlKeys + ItemExtractor.commentKeys
        + ItemExtractor.timeKeys + ["author", "by", "score", "points", "ups", "user", "owner", "body", "tags", "kind", "data", "login", "username"]

    mutating func scalar() -> String {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return "\"https://example.com/\(Int.random(in: 0..<99, using: &rng))\""
        case 1: return "\"2024-0\(Int.random(in: 1...9, using: &rng))-1\(Int.random(in: 0...9, using: &rng))T10:20:30.5Z\""
        case 2: return String(Int.random(in: 1_000_000_000...1_900_000_000_000, using: &rng))
        case 3: return "\"\(Int.random(in: -5...500, using: &rng))\""
        case 4: return "\"\""
        default: return values.value(depth: 0)
        }
    }

    mutating func item(depth: Int = 1) -> String {
        let n = Int.random(in: 0...8, using: &rng)
        let members = (0..<n).map { _ -> String in
            let key = Self.keys.randomElement(using: &rng)!
            let value: String
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where depth > 0: value = item(depth: depth - 1)
            case 1: value = values.value(depth: 2)
            default: value = scalar()
            }
            return "\"\(key)\":\(value)"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func page() -> String {
        let items = (0..<Int.random(in: 0...6, using: &rng)).map { _ -> String in
            Int.random(in: 0..<5, using: &rng) == 0 ? "{\"kind\":\"t3\",\"data\":\(item())}" : item()
        }
        let list = "[" + items.joined(separator: ",") + "]"
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return list
        case 1: return "{\"hits\":\(list),\"page\":1,\"other\":[1,{\"x\":2}]}"
        default: return "{\"data\":{\"children\":\(list)},\"extra\":\(values.value(depth: 2))}"
        }
    }
}
