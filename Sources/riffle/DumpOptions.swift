import Foundation
import RiffleKit

/// What `riffle dump` was asked to do, checked before any request is made.
struct DumpOptions {
    enum Format: String { case jsonl, json, tsv }

    var feed: Feed
    /// The pages asked for; an open range (`2-`, `--all`) runs to `Limits.page`'s end, and the feed's
    /// own end stops every range.
    var pages: ClosedRange<Int>
    /// Whether the range was given without an end: the dump stops at the feed's end, or at the first
    /// page that fails (where the feed ends past it is unknown).
    var untilEnd: Bool
    var format: Format
    /// The browser's parts (`title`, `link`...) or dotted paths into each item (`DumpOutput`); nil
    /// prints whole items (jsonl, json).
    var fields: [String]?
    var policy: CachePolicy
    var maxAge: Int?
    var concurrency: Int
    var timings: Bool
    /// `--hide`: leave out what the feed's rules hide, as the browser does; without it, every item.
    var hide: Bool

    /// The fields of a TSV line when `--fields` is absent: what the browser shows of each item.
    static let defaultTSVFields = DumpOutput.Extracted.allCases.map(\.rawValue)

    init(_ arguments: Arguments) throws(Arguments.UsageError) {
        guard arguments.positionals.count == 1 else {
            throw .init(arguments.positionals.isEmpty ? "riffle dump needs a feed: riffle dump FEED [--pages A-B]"
                : "expected one feed, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
        }
        let refresh = arguments.flags.contains("--refresh"), offline = arguments.flags.contains("--offline")
        guard !(refresh && offline) else { throw .init("--refresh and --offline cannot be used together") }
        let cacheOnly = offline && !DemoFeedCommand.isBuiltIn(arguments.positionals[0])
        // Only the network needs a feed's credentials: `--offline` reads the cache without them.
        feed = try FeedResolver.resolve(arguments.positionals[0], firstPage: arguments.integer("--first-page", in: Limits.firstPage),
                                        forNetwork: !cacheOnly)
        if arguments.flags.contains("--all") {
            guard arguments.values["--pages"] == nil else { throw .init("--all and --pages cannot be used together") }
            (pages, untilEnd) = (Limits.page, true)
        } else {
            (pages, untilEnd) = try Self.pageRange(arguments.values["--pages"] ?? "1")
        }
        format = try Format(rawValue: arguments.choice("--format", in: ["jsonl", "json", "tsv"]) ?? "jsonl")!
        if let list = arguments.values["--fields"] {
            fields = try Self.fieldNames(list)
        } else {
            fields = format == .tsv ? Self.defaultTSVFields : nil
        }
        policy = refresh ? .reloadIgnoringCache : cacheOnly ? .returnCacheDontLoad : .returnCacheElseLoad
        maxAge = try arguments.integer("--max-age", in: Limits.maxAge)
        concurrency = try arguments.integer("--concurrency", in: Limits.concurrency) ?? 4
        timings = arguments.flags.contains("--timings")
        hide = arguments.flags.contains("--hide")
    }

    /// `--fields A,B,C` of `riffle dump` and `riffle search`: names, each once (a name given twice
    /// would be a key written twice in a JSON object).
    static func fieldNames(_ list: String) throws(Arguments.UsageError) -> [String] {
        let names = list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw .init("option --fields needs comma-separated field names, got '\(list)'")
        }
        var seen: Set<String> = []
        if let twice = names.first(where: { !seen.insert($0).inserted }) {
            throw .init("option --fields names '\(twice)' twice, got '\(list)'")
        }
        return names
    }

    /// `3`, `2-10`, or `2-` (from page 2 to the feed's end), pages counted from 1, up to `Limits.page`.
    static func pageRange(_ text: String) throws(Arguments.UsageError) -> (pages: ClosedRange<Int>, untilEnd: Bool) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let untilEnd = parts.count == 2 && parts[1].isEmpty
        let numbers = parts.map { Int($0) }
        guard (1...2).contains(parts.count), let first = numbers[0], let last = untilEnd ? Limits.page.upperBound : numbers[numbers.count - 1],
              Limits.page.contains(first), Limits.page.contains(last), last >= first else {
            throw .init("option --pages needs a page or a range such as 1-5 or 2- (to the end), pages \(Limits.page.lowerBound) to \(Limits.page.upperBound), got '\(text)'")
        }
        return (first...last, untilEnd)
    }
}
