import Foundation
import RiffleKit

/// `riffle inspect FEED`: how riffle reads a feed's first page. Where the items are and why, which
/// path gives each part of an item and why (with the paths that came close), how the pages follow
/// one another, and the feeds.json entry that pins all that. Page 1 comes through the same pipeline as
/// `riffle dump`'s (`PageLoader`, the cache, `--refresh`, `--offline`, `--max-age`).
enum InspectCommand {
    /// Runs the command; returns 0 when page 1 could be read, 1 when it could not (one line says why).
    static func run(_ arguments: Arguments) async throws(Arguments.UsageError) -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw .init(arguments.positionals.isEmpty ? "riffle inspect needs a feed: riffle inspect FEED"
                : "expected one feed, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
        }
        let refresh = arguments.flags.contains("--refresh"), offline = arguments.flags.contains("--offline")
        guard !(refresh && offline) else { throw .init("--refresh and --offline cannot be used together") }
        let cacheOnly = offline && !DemoFeedCommand.isBuiltIn(arguments.positionals[0])
        let feed = try FeedResolver.resolve(arguments.positionals[0], firstPage: arguments.integer("--first-page", in: Limits.firstPage),
                                            forNetwork: !cacheOnly)
        let maxAge = try arguments.integer("--max-age", in: Limits.maxAge)
        let cacheDirectory = try CacheLocation.checked(arguments, create: true)
        let warnings = DumpWarnings()
        var configuration = PageLoader.Configuration()
        configuration.log = { warnings.add($0) }
        let loader = PageLoader(feed: feed, cache: Network.cache(cacheDirectory, log: configuration.log),
                                client: Network.client(for: feed, transport: Network.transport()), configuration: configuration)
        let policy: CachePolicy = refresh ? .reloadIgnoringCache : cacheOnly ? .returnCacheDontLoad : .returnCacheElseLoad
        let page: Page
        do throws(FeedError) {
            page = try await MaxAge.load(1, policy: policy, maxAge: maxAge, loader: loader)
        } catch {
            StandardError.message("page 1: \(error)")
            return 1
        }
        let plan: FieldPlan
        do throws(FeedError) {
            let document = try ItemExtractor.document(page.data, stored: true)
            plan = try ItemExtractor.plan(in: document, itemPath: feed.itemPath, fields: feed.fields, baseURL: feed.url(forPage: 1))
        } catch {
            StandardError.message("page 1: \(error)")
            return 1
        }
        let report = InspectReport(feed: feed, page: page, plan: plan, pagination: loader.paginationReport(for: page))
        print(report.text, terminator: "")
        return 0
    }
}
