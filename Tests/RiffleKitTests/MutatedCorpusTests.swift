import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleKit

/// Real responses damaged the ways a network, a proxy or a buggy server damages them (a byte
/// changed, a piece cut, repeated or left out, an escape or a control character put in): reading
/// them never crashes, and whatever reads as a page reads the same from disk and shows no control
/// characters. (A scratch run of this at a larger scale found the one crash it has found:
/// `ValueShapeTests`' links that end just past the window their API marks are searched in.)
@Suite struct MutatedCorpusTests {
    static let marks: [[UInt8]] = ["\"", "\\", "{", "}", "[", "]", ",", ":", "\u{0}", "\u{1b}", "\\u0000", "\\ud800", "\\udc00x",
                                   "1e999", "-0", "null", "\u{202e}", "\u{2028}", "\\u001b[2J", "99999999999999999999999", "[[[[[[", "\"\":"]
        .map { Array($0.utf8) }

    static func mutate(_ original: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
            case 1: bytes.insert(contentsOf: marks.randomElement(using: &rng)!, at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &rng)))
            case 3: bytes.removeSubrange(at...)
            default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + Int.random(in: 1...200, using: &rng))], at: at)
            }
        }
        return bytes
    }

    @Test(arguments: Corpus.Half.allCases)
    func damagedResponsesNeverCrashTheReader(half: Corpus.Half) throws {
        let url = URL(string: "https://example.com/api/items?page=1")!
        let cursor = Pagination(.cursor(path: "next_cursor", parameter: "cursor"))
        var rng = SeededGenerator(seed: 26)
        var pages = 0
        for file in try Corpus.responseFiles(half) {
            let original = Array(try Data(contentsOf: Corpus.folder(half).appendingPathComponent(file)))
            for _ in 0..<12 {
                let data = Data(Self.mutate(original, &rng))
                let stored = try? ItemExtractor.items(inStoredPage: data, baseURL: url)
                guard let document = try? JSONDocument(data, validation: .full) else { continue }
                _ = try? ItemExtractor.plan(in: document, baseURL: url)
                _ = cursor.nextURL(after: url, headers: [:], document: document)
                guard let list = try? ItemExtractor.list(in: document, itemPath: nil, fields: FieldMapping(), baseURL: url) else { continue }
                pages += 1
                _ = EndSignals(document, around: list.array)
                #expect(stored == list.items, "\(file): read back from disk differently")
                var out = JSONLineWriter()
                for item in list.items {
                    #expect(!item.title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(file)")
                    if let node = item.fieldsNode { out.write(node) }
                }
            }
        }
        // Most damage still leaves a page: the checks above ran on many.
        #expect(pages > 50, "\(half): \(pages) damaged responses still read as pages")
    }
}
