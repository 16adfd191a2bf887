import Foundation
import RiffleKit
import RiffleReading

/// `riffle search WORDS [--feed NAME]`: the items the browser has listed (or `riffle dump` printed), in
/// every feed or one, whose title, author, text or feed name hold every word (or a word starting so),
/// newest first (`--sort relevance`: best first), from the reading log alone: no request is made, so
/// it works offline. Printed like `riffle dump`: jsonl (default),
/// json or tsv, terminal-safe.
enum SearchCommand {
    static let fields = ["feed", "title", "url", "author", "id", "time", "seen", "text"]
    static let defaultTSVFields = ["feed", "title", "url"]

    static func run(_ arguments: Arguments) async throws(Arguments.UsageError) -> Int32 {
        let words = arguments.positionals.joined(separator: " ")
        guard !words.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .init("riffle search needs words to look for: riffle search WORDS [--feed NAME]")
        }
        guard ReadingLog.hasWords(words) else { throw .init("riffle " + ReadingLog.noWordsMessage(words)) }
        let format = try DumpOptions.Format(rawValue: arguments.choice("--format", in: ["jsonl", "json", "tsv"]) ?? "jsonl")!
        var chosen = format == .tsv ? defaultTSVFields : fields
        if let list = arguments.values["--fields"] {
            chosen = try DumpOptions.fieldNames(list)
            if let unknown = chosen.first(where: { !fields.contains($0) }) {
                throw .init("option --fields: '\(unknown)' is not a search field (\(fields.joined(separator: ", ")))")
            }
        }
        let limit = try arguments.integer("--limit", in: 1...10_000) ?? 100
        let order: ReadingLog.Order = try arguments.choice("--sort", in: ["newest", "relevance"]) == "relevance" ? .relevance : .newest
        let cacheDirectory = try CacheLocation.checked(arguments, create: false)
        let log = ReadingLog(cacheDirectory: cacheDirectory)
        let rules = arguments.flags.contains("--hide") ? HideRulesByFeed(catalogs: try? FeedResolver.Catalogs.load()) : nil
        let matches: [ReadingLog.Match]
        do {
            if let rules {
                // The limit is of what is printed: the log is asked again while rules leave out too many.
                matches = try await log.search(words, feed: arguments.values["--feed"], order: order, limit: limit, counting: { !rules.hides($0) })
            } else {
                matches = try await log.search(words, feed: arguments.values["--feed"], order: order, limit: limit)
            }
        } catch { fail(error.description, status: 1) }
        var output = DumpOutput(format: format, fields: chosen, extracted: false)
        var text = output.header
        for match in matches where !(rules?.hides(match) ?? false) { text += output.text(for: item(match)) }
        text += output.footer()
        FileHandle.standardOutput.write(Data(text.utf8))
        if let unapplied = rules?.fieldRules, !unapplied.isEmpty {
            // Said rather than left to look applied: search reads the reading log, which keeps no item's JSON.
            let listed = unapplied.map { "'\($0)'" }.joined(separator: ", ")
            let (reads, it) = unapplied.count == 1 ? ("reads", "it hides") : ("read", "they hide")
            StandardError.message("--hide: \(listed) \(reads) a field of the item's JSON, which search does not keep, so \(it) nothing here "
                + "(riffle dump --hide applies \(unapplied.count == 1 ? "it" : "them"))")
        }
        return 0
    }

    /// A match as an item whose fields are what `--fields` names.
    static func item(_ match: ReadingLog.Match) -> Item {
        var fields: [(key: String, value: JSONValue)] = [("feed", .string(match.feedTitle)), ("title", .string(match.title))]
        fields.append(("url", DumpOutput.link(match.link) ?? .null))
        fields.append(("author", match.author.map(JSONValue.string) ?? .null))
        fields.append(("id", match.id.map(JSONValue.string) ?? .null))
        fields.append(("time", .string(ISO8601DateFormatter().string(from: match.createdAt ?? match.listedAt))))
        fields.append(("seen", .bool(match.seenAt != nil)))
        fields.append(("text", .string(match.text)))
        return Item(id: match.id, title: match.title, details: [], url: match.link, createdAt: match.createdAt, fields: .object(JSONObject(fields)))
    }
}
