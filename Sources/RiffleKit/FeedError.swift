import Foundation

/// Every failure RiffleKit reports: a page that holds no items, a feed whose settings cannot be sent,
/// or the request underneath (`request`, RiffleHTTP's `RiffleError`: the transport, the HTTP answer,
/// the client and the cache). Each case reads as one short line (`description`), which the browser
/// shows as a toast as is.
///
/// ```swift
/// let loader = PageLoader(feed: try Feed(template: "https://hn.algolia.com/api/v1/search?page={page}"),
///                         cacheDirectory: URL(fileURLWithPath: "/tmp/riffle-example"))
/// do throws(FeedError) {
///     let page = try await loader.load(1)
///     print(page.items.count)
/// } catch .request(let failure) where failure.isOffline {
///     print("offline: \(failure)")
/// } catch {
///     print(error)   // "no list of items in the response (top-level keys: error)"
/// }
/// ```
public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is JSON but holds no array of items; `keys` are the top-level keys seen.
    case noItems(keys: [String])
    /// The item array holds no objects, only `count` scalars (or arrays) of `kind` ("numbers",
    /// "strings"..., "values" when mixed) at the dotted `path` ("" for the whole response), such as
    /// Hacker News' `topstories.json`, an array of ids.
    case scalarItems(count: Int, kind: String, path: String)
    /// The body describes one thing rather than listing items: a record of `fields` fields whose
    /// lists are parts of it, the largest at the dotted `path` with `rows` entries (a film's ratings,
    /// a product's images, a table of name/value pairs).
    case notAList(fields: Int, path: String, rows: Int)
    /// The server answered a page with no body at all (204 No Content, or a 2xx with an empty or
    /// blank body). Past page 1 `PageLoader` reads it as the feed's end; for page 1 it is this error,
    /// never stored, so the page kept from before stays.
    case noContent
    /// A page holds more items than a page may (`ItemExtractor.maxItems`).
    case tooManyItems(count: Int, limit: Int)
    /// A feed header or query parameter names an environment variable that is not set (the value is
    /// never included). `usedBy`: what needs it, e.g. "Authorization header" or "api_key query parameter".
    case missingEnvironment(variable: String, usedBy: String)
    /// A feed header names an environment variable whose value holds a line break or NUL, which would
    /// split the request (the value is never included).
    case unusableEnvironment(variable: String, usedBy: String)
    /// The request failed: the transport, the HTTP answer, the client's checks or the cache.
    case request(RiffleError)

    /// `error` as a feed's failure: a `FeedError` a feed's own code threw inside the client's pipeline
    /// (carried as `RiffleError.caller`) comes back as itself; any other is `.request`.
    public init(_ error: RiffleError) {
        if case .caller(let carried) = error, let feed = carried.error as? FeedError { self = feed } else { self = .request(error) }
    }

    /// This failure as the client's pipeline carries it (`RiffleError.caller`), for a feed's code that
    /// runs inside it (a request processor, a page's decoding).
    var carried: RiffleError {
        if case .request(let error) = self { return error }
        return .caller(CallerError(self))
    }

    /// One line for a person: what failed and where, never a credential.
    public var description: String {
        switch self {
        case .noItems(let keys):
            keys.isEmpty ? "no list of items in the response"
                : "no list of items in the response (top-level keys: \(keys.prefix(8).map { RiffleError.visible($0, limit: 40) }.joined(separator: ", ")))"
        case .scalarItems(let count, let kind, let path):
            "an array of \(count) \(kind)\(path.isEmpty ? "" : " at \(RiffleError.visible(path, limit: 60))"), no objects to list"
        case .notAList(let fields, let path, let rows):
            "the response is one record of \(fields) fields, not a list of items (\(RiffleError.visible(path, limit: 60)) holds "
                + "\(rows) of its details)"
        case .noContent: "the server sent no content (an empty answer where the page's JSON should be)"
        case .tooManyItems(let count, let limit):
            "the page holds \(count) items, over the limit of \(limit) a page (ask the server for smaller pages)"
        case .missingEnvironment(let variable, let usedBy):
            "environment variable \(variable) is not set (the feed's \(usedBy) uses it)"
        case .unusableEnvironment(let variable, let usedBy):
            "environment variable \(variable) holds a line break, which cannot be sent (the feed's \(usedBy) uses it)"
        // A secret a server echoed percent-encoded reads `${NAME}`, as the feed names it.
        case .request(let error): Feed.showingReferences(error.description)
        }
    }

    /// True when no answer came (`RiffleError.isConnectivityFailure`): unreachable, timed out, stalled.
    public var isConnectivityFailure: Bool {
        if case .request(let error) = self { error.isConnectivityFailure } else { false }
    }

    /// True when the network or the host could not be reached at all (`RiffleError.isOffline`); never
    /// for a timeout.
    public var isOffline: Bool {
        if case .request(let error) = self { error.isOffline } else { false }
    }

    /// The request's failure, nil for a feed's own.
    public var requestError: RiffleError? {
        if case .request(let error) = self { error } else { nil }
    }
}
