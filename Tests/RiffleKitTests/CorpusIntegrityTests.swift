import Foundation
import Testing

/// The held-out corpus itself (Fixtures/corpus): whole responses that parse, one well-formed expectation per
/// file, item paths that lead where they say, halves split by API, a source for every file. Nothing here
/// judges riffle's heuristics.
@Suite("The real-response corpus is whole, sourced and split by API")
struct CorpusIntegrityTests {
    @Test(arguments: Corpus.Half.allCases)
    func everyResponseParses(half: Corpus.Half) throws {
        let files = try Corpus.responseFiles(half)
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: Corpus.folder(half).appendingPathComponent(file))
            #expect(throws: Never.self, "\(half)/\(file)") { try JSONSerialization.jsonObject(with: data) }
        }
    }

    @Test(arguments: Corpus.Half.allCases)
    func everyFileHasExactlyOneExpectation(half: Corpus.Half) throws {
        let named = try Corpus.entries(half).map(\.file)
        #expect(named.count == Set(named).count, "a file judged twice in \(half)")
        #expect(Set(named) == Set(try Corpus.responseFiles(half)))
    }

    @Test(arguments: Corpus.Half.allCases)
    func itemPathsLeadToTheCountedItems(half: Corpus.Half) throws {
        for entry in try Corpus.entries(half) {
            let root = try JSONSerialization.jsonObject(with: Corpus.data(entry, in: half))
            guard entry.feed else {
                #expect(entry.items == nil && entry.count == nil && entry.item == nil, "\(entry.file)")
                continue
            }
            let path = try #require(entry.items, "\(entry.file) has no items path")
            let items = try #require(Corpus.value(at: path, in: root) as? [Any], "\(entry.file): \(path) is not an array")
            #expect(items.count == entry.count, "\(entry.file): \(path)")
            let index = try #require(entry.item)
            #expect(items.indices.contains(index) && !(items[index] is NSNull), "\(entry.file): item \(index)")
        }
    }

    @Test(arguments: Corpus.Half.allCases)
    func answersAreWhatAPersonReads(half: Corpus.Half) throws {
        for entry in try Corpus.entries(half) {
            guard entry.feed else {
                let answered = [entry.headline, entry.link, entry.author, entry.time].contains { !$0.accepted.isEmpty }
                #expect(!answered, "\(entry.file) is not a feed but has answers")
                continue
            }
            #expect(!entry.headline.accepted.isEmpty, "\(entry.file) has no headline")
            for text in entry.headline.accepted + entry.author.accepted {
                #expect(text == text.trimmingCharacters(in: .whitespacesAndNewlines) && !text.isEmpty, "\(entry.file): \(text)")
                #expect(!text.contains("  ") && !text.contains("\n") && text.wholeMatch(of: /.*<\/?[a-zA-Z][^>]*>.*/) == nil,
                        "\(entry.file): \(text) is not as the screen shows it")
            }
            for link in entry.link.accepted {
                let url = try #require(URL(string: link), "\(entry.file): \(link)")
                #expect(["http", "https"].contains(url.scheme) && url.host != nil, "\(entry.file): \(link) is not absolute")
            }
            for time in entry.time.accepted {
                #expect(time.wholeMatch(of: /\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?/) != nil,
                        "\(entry.file): \(time) is not ISO 8601 with an offset")
            }
            _ = try #require(URL(string: entry.url), "\(entry.file): \(entry.url)")
        }
    }

    @Test func theHalvesAreSplitByAPI() throws {
        var halfOfAPI: [String: Corpus.Half] = [:]
        var apiOfSlug: [String: String] = [:]
        for half in Corpus.Half.allCases {
            for entry in try Corpus.entries(half) {
                #expect(halfOfAPI.updateValue(half, forKey: entry.api).map { $0 == half } ?? true, "\(entry.api) is in both halves")
                let slug = String(entry.file.prefix { $0 != "-" })
                #expect(apiOfSlug.updateValue(entry.api, forKey: slug).map { $0 == entry.api } ?? true,
                        "\(slug) names two APIs")
            }
        }
        #expect(Set(apiOfSlug.values).count == halfOfAPI.count, "one API under two slugs")
    }

    @Test func everyKindIsInBothHalves() throws {
        let tune = Set(try Corpus.entries(.tune).map(\.kind))
        let heldout = Set(try Corpus.entries(.heldout).map(\.kind))
        #expect(tune == heldout)
    }

    @Test func theCorpusIsWideEnough() throws {
        let entries = try Corpus.Half.allCases.flatMap { try Corpus.entries($0) }
        #expect(entries.count >= 80, "\(entries.count) files")
        #expect(Set(entries.map(\.api)).count >= 60, "\(Set(entries.map(\.api)).count) APIs")
        #expect(entries.filter { !$0.feed }.count >= 4, "answers about one thing")
        let apisPerHalf = try Corpus.Half.allCases.map { Set(try Corpus.entries($0).map(\.api)).count }
        #expect(abs(apisPerHalf[0] - apisPerHalf[1]) <= 3, "halves of \(apisPerHalf) APIs")
    }

    @Test func theReadmeNamesASourceForEveryFile() throws {
        let readme = try String(contentsOf: Corpus.folder(.tune).deletingLastPathComponent().appendingPathComponent("README.md"),
                                encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for half in Corpus.Half.allCases {
            for file in try Corpus.responseFiles(half) {
                let row = rows.first { $0.hasPrefix("| `\(half.rawValue)/\(file)` |") }
                #expect(row?.contains("https://") == true, "no source for \(half.rawValue)/\(file)")
            }
        }
    }
}
