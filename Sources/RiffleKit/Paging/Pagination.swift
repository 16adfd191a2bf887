import Foundation

/// How a feed reaches its next page. Whatever the style, Riffle numbers pages 1, 2, 3... on disk.
///
/// ```swift
/// Pagination(.pageNumber(firstPage: 0))                       // ?page={page}, the server counts from 0
/// Pagination(.offset(limit: 25))                              // ?offset={offset}&limit={limit}
/// Pagination(.cursor(path: "data.after", parameter: "after")) // Reddit
/// Pagination(.linkHeader)                                     // GitHub: Link: <…>; rel="next"
/// ```
public struct Pagination: Sendable, Hashable {
    /// The ways servers paginate.
    public enum Style: Sendable, Hashable {
        /// `{page}` in the template is the server's page number; Riffle's page N is `firstPage + N - 1`.
        case pageNumber(firstPage: Int)
        /// `{offset}` (and `{limit}` when present) in the template; Riffle's page N starts at `(N - 1) * limit`,
        /// or, when the server served fewer items than `limit` on page 1 (it caps the limit), at
        /// `(N - 1) *` that many (`PageLoader` knows page 1; `Feed.url(forPage:)` does not).
        case offset(limit: Int)
        /// Page 1 is the template as is; page N+1 adds `parameter=<cursor>`, the cursor read at the dotted
        /// `path` of page N's body. No cursor (missing, null, empty) ends the feed.
        case cursor(path: String, parameter: String)
        /// Page 1 is the template as is; page N+1 is the `rel="next"` URL of page N's `Link` header, else
        /// the next page's URL page N's body gives beside its items (`next`, `next_page_url`,
        /// `links.next`, `@odata.nextLink`, HAL's `_links.next.href`). Neither ends the feed. What a URL
        /// without `{page}` or `{offset}` gets in `riffle` and in a feeds file.
        case linkHeader
    }

    /// The style.
    public var style: Style
    /// A dotted path to a boolean in each page (`has_more`); `false` there ends the feed.
    public var hasMorePath: String?

    /// - Parameters:
    ///   - style: how the next page is reached.
    ///   - hasMorePath: where a page says whether more follow, if it does.
    public init(_ style: Style, hasMorePath: String? = nil) {
        self.style = style
        self.hasMorePath = hasMorePath
    }

    /// Whether page N+1's URL comes from page N's response (so pages must be fetched in order).
    public var isSequential: Bool {
        switch style {
        case .pageNumber, .offset: false
        case .cursor, .linkHeader: true
        }
    }

    /// The style a template's placeholders imply where none is named (a URL given to `riffle`, a feeds
    /// file's entry without `pagination`): `{page}`, numbered pages from `firstPage`; else `{offset}`,
    /// offsets of 25 items; else page 1 is the URL as is and the pages after it are the ones its
    /// answers link to (`.linkHeader`), so a URL whose answers link to none is a feed of one page.
    package static func implied(by template: String, firstPage: Int = 1) -> Pagination {
        if template.contains(Feed.pagePlaceholder) { return Pagination(.pageNumber(firstPage: firstPage)) }
        if template.contains("{offset}") { return Pagination(.offset(limit: 25)) }
        return Pagination(.linkHeader)
    }

    /// The placeholders the template must contain for this style.
    var requiredPlaceholders: [String] {
        switch style {
        case .pageNumber: ["{page}"]
        case .offset: ["{offset}"]
        case .cursor, .linkHeader: []
        }
    }

    /// The template with the page's placeholders filled in; nil means the URL depends on the previous page.
    /// - Parameter step: for an offset feed, how many items lie between one page's offset and the
    ///   next's, when that is not the limit (a server that serves fewer than asked,
    ///   `PageLoader.offsetStep`); `{limit}` stays the limit asked for.
    func substitute(_ template: String, page number: Int, offsetStep step: Int? = nil) -> String {
        switch style {
        // Not Foundation's replacingOccurrences (an NSString round trip): this runs for every page looked up.
        case .pageNumber(let first):
            return Self.filling("{page}", in: template, with: String(number - 1 + first))
        case .offset(let limit):
            // A step is between 1 and the limit, so no product here is larger than without one.
            let offset = (number - 1) * (step.flatMap { $0 > 0 && $0 < limit ? $0 : nil } ?? limit)
            return Self.filling("{limit}", in: Self.filling("{offset}", in: template, with: String(offset)), with: String(limit))
        case .cursor, .linkHeader:
            return template
        }
    }

    /// `text.replacing(placeholder, with: value)`. An ASCII `text` (a URL, almost always) is searched
    /// byte by byte, where bytes and Characters agree, at a fraction of the cost of the standard
    /// library's generic search (which was most of the time a page's URL took); any other text goes
    /// through `replacing`, Character by Character, as before.
    static func filling(_ placeholder: String, in text: String, with value: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.replacing(placeholder, with: value) }
        var text = text, pattern = placeholder
        let filled = text.withUTF8 { bytes -> String? in
            pattern.withUTF8 { pattern -> String? in
                guard let first = pattern.first else { return nil }
                let n = bytes.count, m = pattern.count
                var out: [UInt8] = []
                var copied = 0, i = 0
                while i &+ m <= n {
                    if bytes[i] == first && memcmp(bytes.baseAddress! + i, pattern.baseAddress!, m) == 0 {
                        if out.isEmpty { out.reserveCapacity(n &+ 16) }
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
                        out.append(contentsOf: value.utf8)
                        i &+= m
                        copied = i
                    } else {
                        i &+= 1
                    }
                }
                guard copied > 0 else { return nil }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
                return String(decoding: out, as: UTF8.self)
            }
        }
        // Nothing to fill: the text as it was.
        return filled ?? text
    }

    /// The URL of the page after one whose response is `response` with body `document`, or nil at the end.
    ///
    /// Only sequential styles answer: the others compute any page's URL from its number.
    /// - Parameters:
    ///   - pageURL: the URL page N was fetched from, to which a cursor is added and a relative link resolved.
    ///   - answerURL: where page N's answer came from when a redirect led elsewhere: a relative link
    ///     is resolved against it instead (RFC 3986 §5.1.3). nil: `pageURL`.
    ///   - headers: page N's response headers (`Link` for `.linkHeader`).
    ///   - document: page N's body (the cursor for `.cursor`; for `.linkHeader` without a `Link`
    ///     header, a next link in its root object or the root's paging objects: `links`, `meta`...).
    public func nextURL(after pageURL: URL, answeredFrom answerURL: URL? = nil, headers: [String: String],
                        document: JSONDocument) -> URL? {
        nextURL(after: pageURL, answeredFrom: answerURL, headers: headers, document: document, array: nil)
    }

    /// `nextURL(after:answeredFrom:headers:document:)`, a next link in the body looked for in the
    /// objects on the way from the root to the item array at tape index `array` (Spotify's
    /// `albums.next` beside `albums.items`) and their paging objects.
    func nextURL(after pageURL: URL, answeredFrom answerURL: URL?, headers: [String: String], document: JSONDocument,
                 array: Int?) -> URL? {
        switch style {
        case .pageNumber, .offset:
            return nil
        case .cursor(let path, let parameter):
            guard let cursor = document.scalar(at: JSONPath(path))?.scalarText, !cursor.isEmpty,
                  var components = URLComponents(url: pageURL, resolvingAgainstBaseURL: false) else { return nil }
            // The rest of the query as written: a `+` in it is a space to the server, a `%2B` a plus.
            components.appendQueryItems([URLQueryItem(name: parameter, value: cursor)], replacing: [parameter])
            return components.url
        case .linkHeader:
            let base = answerURL ?? pageURL
            if let link = headers["link"] ?? headers["Link"], let target = Self.nextLink(in: link) {
                return URL(string: target, relativeTo: base)?.absoluteURL
            }
            guard let target = EndSignals(document, around: array).nextLink,
                  let url = URL(string: Self.underBasePath(target, of: base), relativeTo: base)?.absoluteURL,
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else { return nil }
            return url
        }
    }

    /// A next link written from the API's base path rather than the server's root, read under that
    /// base: Mealie answers `/api/recipes?page=1` with `"next": "/recipes?page=2"`, which from the root
    /// is a 404. A link from the root (`/…`) whose path is the end of the page's own path, at a `/`,
    /// gets the rest of the page's path before it (`/api/recipes?page=2`): the next page of a list is
    /// that list. Any other link is kept as written (`/v2/items?page=2` on `/v1/items` too).
    static func underBasePath(_ link: String, of page: URL) -> String {
        guard link.hasPrefix("/"), !link.hasPrefix("//") else { return link }
        let linkPath = link.prefix { $0 != "?" && $0 != "#" }
        guard linkPath.count > 1, let pagePath = URLComponents(url: page, resolvingAgainstBaseURL: true)?.percentEncodedPath,
              pagePath.count > linkPath.count, pagePath.hasSuffix(linkPath) else { return link }
        return pagePath.dropLast(linkPath.count) + link
    }

    /// The target of `rel="next"` in an RFC 8288 `Link` header value, e.g.
    /// `<https://api.github.com/…?page=2>; rel="next", <…>; rel="last"`.
    ///
    /// Scanned rather than split: a target may hold commas and semicolons (`?ids=1,2;v=3`), a quoted
    /// parameter may hold commas (`title="a, b"`), and `rel` may name several relations (`"prev next"`).
    /// Spaces and tabs around the target inside `<>` are dropped; the rest is kept as written.
    public static func nextLink(in header: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            var target = rest[rest.index(after: open)..<close]
            // `< https://…?page=2 >`: RFC 8288 parsers (browsers') take the URL inside, without the blanks.
            while let first = target.first, first == " " || first == "\t" { target = target.dropFirst() }
            while let last = target.last, last == " " || last == "\t" { target = target.dropLast() }
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside quotes.
            var parameters: [Substring] = []
            var start = rest.startIndex, index = rest.startIndex, quoted = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" {
                    quoted.toggle()
                } else if quoted && character == "\\" {
                    index = rest.index(after: index)
                    if index == rest.endIndex { break }
                } else if !quoted && (character == ";" || character == ",") {
                    parameters.append(rest[start..<index])
                    start = rest.index(after: index)
                    if character == "," { break }
                }
                index = rest.index(after: index)
            }
            if index == rest.endIndex { parameters.append(rest[start...]) }
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
            if parameters.contains(where: Self.isNextRelation) { return String(target) }
        }
        return nil
    }

    /// Whether one `name=value` parameter is `rel` with `next` among its space-separated relations.
    private static func isNextRelation(_ parameter: Substring) -> Bool {
        guard let equals = parameter.firstIndex(of: "=") else { return false }
        let name = parameter[..<equals].filter { $0 != " " && $0 != "\t" }.lowercased()
        guard name == "rel" else { return false }
        var value = parameter[parameter.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
        while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
        return value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).contains("next")
    }
}
