import Foundation

/// A paged JSON feed: where its pages are, how to reach the next one, where the items are in each page
/// and how to name it.
///
/// ```swift
/// let feed = try Feed(template: "https://lobste.rs/page/{page}.json")
/// feed.url(forPage: 2)  // https://lobste.rs/page/2.json
///
/// let reddit = try Feed(template: "https://www.reddit.com/r/swift.json", name: "r/swift",
///                       pagination: Pagination(.cursor(path: "data.after", parameter: "after")),
///                       headers: ["Authorization": "Bearer ${REDDIT_TOKEN}"])  // expanded per request
/// ```
public struct Feed: Sendable, Hashable {
    /// The text that stands for the page number in `template`.
    public static let pagePlaceholder = "{page}"

    /// What the user calls the feed; shown in the header.
    public var name: String
    /// The URL of the pages, with the placeholders its pagination style needs (`{page}`, `{offset}`).
    public var template: String
    /// How the next page is reached.
    public var pagination: Pagination
    /// Where the array of items is (`hits`, `data.children`); nil finds it by what the page holds.
    public var itemPath: JSONPath?
    /// Which fields of an item are shown; unmapped parts are found automatically.
    public var fields: FieldMapping
    /// Headers sent with every page request. Values may name environment variables (`Bearer ${TOKEN}`);
    /// they are expanded when a request is made and never stored.
    public var headers: [String: String]
    /// Query parameters added to every page URL built from the template.
    public var query: [String: String]
    /// How a page is asked for besides its URL: GET, or a method with a body template (`PageRequest`).
    public var request: PageRequest = .get
    /// The `query` parameters whose `${NAME}` values are credentials: kept out of what is stored,
    /// shown or logged, and part of a page's identity only as a digest. nil: those whose name says so
    /// (`Feed.isCredentialName`: `api_key`, `token`, `sig`...). Header values are always credentials.
    public var secrets: Set<String>?
    /// How a page reports failure (on any status), if it does: one of the client's `EnvelopeRule`s. The
    /// items are looked for in the whole page, envelope included.
    public var envelope: EnvelopeRule?
    /// How long a stored page counts as fresh, in seconds; nil leaves it to the cache's default.
    public var maxAge: TimeInterval?
    /// What stands for `template` in `cacheIdentity`, for a feed whose URL changes from run to run while
    /// its pages stay the same (the demo feed's port); nil uses the template.
    public var cacheName: String?
    /// Where the items' comments are and how to read them; nil when the feed does not say.
    public var comments: CommentRules?
    /// The items not to list (`HideRule`): a feeds file's `hide`, the file's own list first. A reader
    /// shows the others, and says how many these hide.
    public var hide: [HideRule] = []
    /// The user-info the URL was given with (`https://user:PASSWORD@host/...`), kept here and never in
    /// `template` (which reads `user:***@host`); sent as Basic authentication to the feed's origin only.
    package var userInfo: UserInfo?
    /// The keys written in the URL's query (`api_key=KEY`), kept here and never in `template` (which
    /// reads `api_key=***`); filled back in for the feed's origin only (`Feed+QueryKeys`).
    package var queryKeys: [QueryKey] = []

    /// What identifies the feed's pages on disk: everything that changes a page's URL, so that changing
    /// one never serves another page's file. The template (with a preset's argument already in it, or
    /// `cacheName`), the added query values, and the pagination's own numbers (a first page other than
    /// 1, the offset page size, the cursor parameter). A plain page-numbered feed is its template alone.
    public var cacheIdentity: String {
        var identity = cacheName ?? template
        if !query.isEmpty {
            identity += "?" + query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        }
        switch pagination.style {
        case .pageNumber(let first) where first != 1: identity += " first=\(first)"
        case .pageNumber: break
        case .offset(let limit): identity += " limit=\(limit)"
        case .cursor(let path, let parameter): identity += " cursor=\(parameter)@\(path)"
        case .linkHeader: identity += " link"
        }
        // Only a feed with a request template says so: a GET feed keeps the identity it always had.
        if request != .get { identity += " \(request.method.rawValue) \(request.contentType) \(request.body ?? "")" }
        return identity
    }

    /// The number the server gives its first page when the style is `.pageNumber` (0 or 1), else 1.
    /// Riffle always numbers pages from 1. Setting it makes the feed page-numbered.
    public var firstPage: Int {
        get { if case .pageNumber(let first) = pagination.style { first } else { 1 } }
        set { pagination.style = .pageNumber(firstPage: newValue) }
    }

    /// Creates a page-numbered feed after checking the template: it must parse as an http(s) URL with a host
    /// and contain `{page}`.
    /// - Parameters:
    ///   - template: the page URL with `{page}` in it.
    ///   - name: the feed's name; nil: its host.
    ///   - firstPage: the number the server gives its first page (0 or 1).
    ///   - cacheIdentity: what stands for the template in `cacheIdentity` (`cacheName`).
    /// - Throws: `Feed.TemplateError` saying what is wrong.
    public init(template: String, name: String? = nil, firstPage: Int = 1, cacheIdentity: String? = nil) throws(TemplateError) {
        try self.init(template: template, name: name, pagination: Pagination(.pageNumber(firstPage: firstPage)),
                      cacheIdentity: cacheIdentity)
    }

    /// Creates a feed of any pagination style after checking the template: it must parse as an http(s) URL
    /// with a host, and it or the request's body template must contain the placeholders the style needs.
    /// A user-info in it (`https://user:PASSWORD@host/...`) is a credential: `template` keeps
    /// `user:***@host`, and the password is sent, as Basic authentication, to the feed's origin only.
    /// So is a key written in its query (`api_key=KEY`): `template` keeps `api_key=***`, and the key is
    /// sent to the feed's origin only.
    /// - Parameters:
    ///   - template: the page URL, with the pagination style's placeholders unless the body has them.
    ///   - name: the feed's name; nil: its host.
    ///   - pagination: how pages are numbered and where the feed ends.
    ///   - itemPath: the path of the item array (`data.children`); nil: found by looking.
    ///   - fields: which members are an item's title, link, id, date...; unmapped parts are found by looking.
    ///   - headers: header fields sent with every page request.
    ///   - query: query parameters added to every page URL (`${NAME}` values from the environment).
    ///   - request: the method and body template of each page request (`PageRequest`); GET by default.
    ///   - envelope: the rule that unwraps and checks each page; nil: none.
    ///   - maxAge: seconds a stored page counts as fresh; nil: the cache's default.
    ///   - cacheIdentity: what stands for the template in `cacheIdentity` (`cacheName`).
    ///   - secrets: the `query` parameters whose values are credentials (`Feed.secrets`).
    /// - Throws: `Feed.TemplateError` saying what is wrong.
    public init(template: String, name: String? = nil, pagination: Pagination, itemPath: JSONPath? = nil,
                fields: FieldMapping = FieldMapping(), headers: [String: String] = [:], query: [String: String] = [:],
                request: PageRequest = .get, envelope: EnvelopeRule? = nil, maxAge: TimeInterval? = nil,
                cacheIdentity: String? = nil, secrets: Set<String>? = nil) throws(TemplateError) {
        // Before anything can quote the template (an error, the feed's identity).
        let (userInfoHidden, userInfo) = Self.separatingUserInfo(template)
        let (template, queryKeys) = Self.separatingQueryKeys(userInfoHidden, secrets: secrets)
        for placeholder in pagination.requiredPlaceholders
        where !template.contains(placeholder) && request.body?.contains(placeholder) != true {
            throw placeholder == Self.pagePlaceholder ? .missingPlaceholder(template) : .missingOffsetPlaceholder(template)
        }
        guard let url = URL(string: pagination.substitute(template, page: 1)), let scheme = url.scheme?.lowercased() else {
            throw .unparsable(template)
        }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        guard let host = url.host, !host.isEmpty else { throw .unparsable(template) }
        self.template = template
        self.pagination = pagination
        self.itemPath = itemPath
        self.fields = fields
        self.headers = headers
        self.query = query
        self.request = request
        self.secrets = secrets
        self.envelope = envelope
        self.maxAge = maxAge
        self.name = name ?? host
        self.cacheName = cacheIdentity
        self.userInfo = userInfo
        self.queryKeys = queryKeys
    }

    /// A short, stable folder name for this feed's pages: a hash of `cacheIdentity`, never server text.
    public var id: String { StableHash.hex(of: cacheIdentity) }

    /// The URL of Riffle's page `number` (1-based) built from the template and `query`.
    ///
    /// For sequential styles (cursor, Link header) only page 1 can be built this way, so this is page 1's
    /// URL; `PageLoader` takes later pages' URLs from the previous page's stored metadata. An offset
    /// feed's page is placed by its limit here; `PageLoader` places it by what page 1 held when the
    /// server served fewer.
    public func url(forPage number: Int) -> URL {
        url(forPage: number, offsetStep: nil)
    }

    /// `url(forPage:)`, an offset feed's pages `step` items apart rather than its limit (`Pagination.substitute`).
    func url(forPage number: Int, offsetStep step: Int?) -> URL {
        let page = pagination.isSequential ? 1 : number
        // The template was validated at init, and an integer cannot make it unparsable.
        let url = URL(string: pagination.substitute(template, page: page, offsetStep: step))!
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        // After the template's own query, left as written (a `%2B` in it stays a plus).
        components.appendQueryItems(query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
        return components.url ?? url
    }

    /// The page size the page URLs ask for (`per_page=30`, `limit=25`, an offset feed's limit), when
    /// they say: a page's `total` is reached when the pages before it and its own items add up to it.
    var requestedPageSize: Int? {
        if case .offset(let limit) = pagination.style { return limit }
        let names: Set = ["per_page", "perPage", "page_size", "pageSize", "pagesize", "limit", "_limit", "size", "hitsPerPage",
                          "maxResults", "pagelen", "count", "rows"]
        let items = URLComponents(url: url(forPage: 1), resolvingAgainstBaseURL: false)?.queryItems ?? []
        if let size = items.lazy.filter({ names.contains($0.name) }).compactMap({ $0.value.flatMap { Int($0) } }).first(where: { $0 > 0 }) {
            return size
        }
        // A page request's body says it the same way: `"rows": 20` in JSON, `rows=20` in a form.
        guard let body = request.body else { return nil }
        let pairs = body.split(whereSeparator: { "{},&\n".contains($0) }).map { pair in
            pair.split(separator: pair.contains("=") ? "=" : ":", maxSplits: 1)
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" \t")) }
        }
        return pairs.lazy.filter { $0.count == 2 && names.contains($0[0]) }.compactMap { Int($0[1]) }.first { $0 > 0 }
    }

    /// What is wrong with a feed URL template; each reads as one line.
    public enum TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Neither the URL nor the body template of a page-numbered feed has `{page}`.
        case missingPlaceholder(String)
        /// Neither the URL nor the body template has another placeholder the pagination style needs (`{offset}`).
        case missingOffsetPlaceholder(String)
        /// The template does not parse as a URL with a host.
        case unparsable(String)
        /// The template's scheme is neither http nor https.
        case unsupportedScheme(String)

        /// One line saying what is wrong with the template.
        public var description: String {
            switch self {
            case .missingPlaceholder(let t): "the URL has no {page} placeholder: \(t)"
            case .missingOffsetPlaceholder(let t): "the URL has no {offset} placeholder: \(t)"
            case .unparsable(let t): "not a valid URL: \(t)"
            case .unsupportedScheme(let s): "unsupported URL scheme '\(s)' (use http or https)"
            }
        }
    }
}

/// FNV-1a, 64 bits: stable across runs and machines (Swift's `Hasher` is seeded per process).
enum StableHash {
    static func hex(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
