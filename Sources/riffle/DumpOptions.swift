import Foundation
import RiffleKit

/// What `riffle dump` was asked to do, checked before any request is made.
struct DumpOptions {
    enum Format: String { case jsonl, json, tsv }

    var feed: Feed
    var pages: ClosedRange<Int>
    var format: Format
    /// Dotted paths into each item's fields; nil prints whole items (jsonl, json).
    var fields: [String]?
    var policy: CachePolicy
    var maxAge: Int?
    var concurrency: Int
    var timings: Bool

    /// The fields of a TSV line when `--fields` is absent.
    static let defaultTSVFields = ["title", "url"]

    init(_ arguments: Arguments) throws(Arguments.UsageError) {
        guard arguments.positionals.count == 1 else {
            throw .init(arguments.positionals.isEmpty ? "riffle dump needs a feed: riffle dump FEED [--pages A-B]"
                : "expected one feed, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
        }
        feed = try FeedResolver.resolve(arguments.positionals[0], firstPage: arguments.integer("--first-page", in: Limits.firstPage))
        pages = try Self.pageRange(arguments.values["--pages"] ?? "1")
        format = try Format(rawValue: arguments.choice("--format", in: ["jsonl", "json", "tsv"]) ?? "jsonl")!
        if let list = arguments.values["--fields"] {
            let names = list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
                throw .init("option --fields needs comma-separated field names, got '\(list)'")
            }
            fields = names
        } else {
            fields = format == .tsv ? Self.defaultTSVFields : nil
        }
        let refresh = arguments.flags.contains("--refresh"), offline = arguments.flags.contains("--offline")
        guard !(refresh && offline) else { throw .init("--refresh and --offline cannot be used together") }
        policy = refresh ? .reloadIgnoringCache : offline ? .returnCacheDontLoad : .returnCacheElseLoad
        maxAge = try arguments.integer("--max-age", in: Limits.maxAge)
        concurrency = try arguments.integer("--concurrency", in: Limits.concurrency) ?? 4
        timings = arguments.flags.contains("--timings")
    }

    /// `3` or `2-10`, pages counted from 1, up to `Limits.page`.
    static func pageRange(_ text: String) throws(Arguments.UsageError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.map { Int($0) }
        guard (1...2).contains(parts.count), let first = numbers[0], let last = numbers[numbers.count - 1],
              Limits.page.contains(first), Limits.page.contains(last), last >= first else {
            throw .init("option --pages needs a page or a range such as 1-5, pages \(Limits.page.lowerBound) to \(Limits.page.upperBound), got '\(text)'")
        }
        return first...last
    }
}
