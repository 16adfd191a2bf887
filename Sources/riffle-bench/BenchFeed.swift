import DemoServer
import Foundation

/// The benchmark's feed: pages of 50 items of about 84 KB each (as the targets are stated), served
/// by the demo server on 127.0.0.1 with a chosen latency.
enum BenchFeed {
    static let perPage = 50

    /// `pages` pages of items with long bodies mixing ASCII, CJK, emoji, quotes and line breaks.
    static func feed(pages: Int) -> DemoFeed {
        var rng = SplitMix64(seed: 0xFEED)
        let words = ["swift", "linux", "parser", "terminal", "cache", "feed", "bytes", "pager", "json", "release"]
        let cjk = ["東京", "日本語", "解析器", "高速", "데이터", "终端", "缓存"]
        let reference = Date(timeIntervalSince1970: 1_760_000_000)
        let items = (0..<pages * perPage).map { i -> DemoItem in
            func word() -> String { words[Int(rng.next() % UInt64(words.count))] }
            var body = ""
            while body.utf8.count < 1_330 {
                body += "\(word()) \(word()) \"quoted\" \(cjk[Int(rng.next() % 7)])\n\tline é—\(word()) /path "
            }
            return DemoItem(id: 50_000_000 - i, title: "\(word().capitalized) \(cjk[i % 7]) \(word()) 🚀 — \(word()) #\(i)",
                            author: "user_\(word())_\(i % 977)", score: Int(rng.next() % 5000),
                            url: "https://example.com/\(word())/\(i)?ref=riffle", createdAt: reference.addingTimeInterval(Double(-i * 60)),
                            body: body)
        }
        return DemoFeed(items: items, perPage: perPage, referenceDate: reference)
    }

    static func server(pages: Int, latency: Duration) throws -> DemoFeedServer {
        try DemoFeedServer(latency: latency, timeline: .stored, feed: feed(pages: pages))
    }
}
