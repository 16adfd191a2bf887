import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

/// The extractor on pages it was never shown: generated from its own vocabulary (so every rule
/// fires, on values of every kind) and edge shapes. It never crashes, reads a page back from disk as
/// it read it fresh, and never lets a control character into a title.
@Suite struct ItemExtractorGeneratedTests {
    static func read(_ data: Data, stored: Bool) -> Result<[Item], FeedError> {
        do throws(FeedError) {
            return .success(stored ? try ItemExtractor.items(inStoredPage: data) : try ItemExtractor.items(in: data))
        } catch {
            return .failure(error)
        }
    }

    static func checkInvariants(_ text: String) {
        let data = Data(text.utf8)
        let fresh = read(data, stored: false)
        #expect(read(data, stored: true) == fresh, "\(text.debugDescription)")
        guard case .success(let items) = fresh else { return }
        for item in items {
            #expect(!item.title.isEmpty, "\(text.debugDescription)")
            #expect(!item.title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
            #expect(item.url.map { $0.hasPrefix("http") } ?? true, "\(text.debugDescription)")
            #expect(item.fields.objectValue != nil, "\(text.debugDescription)")
            #expect(item.details.count <= 3)
        }
    }

    @Test(arguments: [
        "{}", "[]", "{\"a\":1,\"b\":[1,2]}", "[1,2,{\"title\":\"x\"}]", "{\"x\":[{\"kind\":\"t3\",\"data\":{\"title\":\"r\"}}]}",
        "[{\"data\":{\"name\":\"only data\"}}]", "[{\"kind\":1,\"data\":2}]", "{\"a\":[{}],\"b\":[{},{}]}", "not json",
        "[{\"title\":\"\",\"body\":\"fallback\"}]", "[{\"ti\\u0074le\":\"escaped key\"}]", "[{\"title\":\"a\",\"title\":\"b\"}]",
        "[{\"score\":\"12\",\"points\":3,\"num_comments\":\"x\",\"created_at\":\"2024-05-01T12:30:00+02:00\"}]",
        "[{\"user\":{\"login\":\"octo\"},\"url\":\"ftp://x\",\"id\":12345678901234567890}]",
        "{\"\\u00e9\":[{\"t\":1}],\"e\\u0301\":[]}", "[{\"title\":\"<p>a\\u001b[2Jb</p>\"}]", "[{\"artists\":[],\"name\":\"x\"}]",
        "[{\"node\":{\"node\":{\"title\":\"deep\"}}}]", "{\"data\":[]}", "{\"data\":[1,2]}", "[[1],[2]]", "3", "\"text\"",
    ])
    func edgeShapes(text: String) {
        Self.checkInvariants(text)
    }

    @Test(arguments: 0..<6)
    func generatedPages(seed: UInt64) {
        var generator = FeedPageGenerator(seed: seed)
        for _ in 0..<60 {
            Self.checkInvariants(generator.page())
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

    static let keys = ItemRules.standard.keys.keys + ["body", "tags", "kind"]

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
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: "{\"kind\":\"t3\",\"data\":\(item())}"
            case 1: "{\"cursor\":\"c\",\"node\":\(item())}"
            case 2: "{\"type\":\"articles\",\"id\":\"1\",\"attributes\":\(item())}"
            default: item()
            }
        }
        let list = "[" + items.joined(separator: ",") + "]"
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return list
        case 1: return "{\"hits\":\(list),\"page\":1,\"other\":[1,{\"x\":2}]}"
        default: return "{\"data\":{\"children\":\(list)},\"extra\":\(values.value(depth: 2))}"
        }
    }
}
