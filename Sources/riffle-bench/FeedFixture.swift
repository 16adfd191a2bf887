import Foundation

/// A realistic cached feed page, generated deterministically so every run measures the same bytes.
///
/// Each item is about 1.7 KB: id, a title mixing CJK, emoji and ASCII, author, score, url,
/// an ISO 8601 `created_at`, a body with escapes, a tags array and a nested user object.
enum FeedFixture {
    static func page(items count: Int = 50) -> Data {
        var rng = SplitMix64(seed: 0x5EED)
        var out = "{\"page\":1,\"per_page\":\(count),\"total\":12873,\"hits\":[\n"
        let words = ["swift", "linux", "parser", "terminal", "cache", "feed", "bytes", "pager", "json", "release"]
        let cjk = ["東京", "日本語", "解析器", "高速", "데이터", "중국어", "终端", "缓存"]
        let emoji = ["🚀", "🎉", "👩‍💻", "🔥", "✨", "🇯🇵"]
        for i in 0..<count {
            func word() -> String { words[Int(rng.next() % UInt64(words.count))] }
            let title = "\(word().capitalized) \(cjk[i % cjk.count]) \(word()) \(emoji[i % emoji.count]) — \(word()) \(cjk[(i + 3) % cjk.count]) #\(i)"
            var body = ""
            while body.utf8.count < 1_180 {
                body += "\(word()) \(word()) \\\"quoted\\\" \(cjk[Int(rng.next() % 8)])\\n\\tline \\u00e9\\u2014\(word()) \\/path "
            }
            let tags = (0..<4).map { _ in "\"\(word())\"" }.joined(separator: ",")
            let day = 1 + i % 28
            out += """
              {"id":\(40_000_000 + i),"objectID":"\(40_000_000 + i)","title":"\(title)","author":"user_\(word())_\(i)",\
            "score":\(rng.next() % 5000),"num_comments":\(rng.next() % 700),"url":"https://example.com/\(word())/\(i)?ref=riffle&lang=ja",\
            "created_at":"2024-05-\(day < 10 ? "0" : "")\(day)T12:\(10 + i % 50):07.250Z","created_at_i":\(1_714_560_000 + i * 3600),\
            "body":"\(body)","tags":[\(tags)],"ratio":\(Double(rng.next() % 10_000) / 100),"story_text":null,"dead":false,\
            "user":{"id":\(900 + i),"login":"user_\(i)","karma":\(rng.next() % 90_000),"about":"\(cjk[i % 8]) maker \(emoji[i % 6])","verified":true}}
            """
            out += i == count - 1 ? "\n" : ",\n"
        }
        out += "]}\n"
        return Data(out.utf8)
    }
}

/// A tiny deterministic PRNG (SplitMix64): the fixture must not change between runs.
struct SplitMix64 {
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
