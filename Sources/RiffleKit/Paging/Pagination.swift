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
        /// `{offset}` (and `{limit}` when present) in the template; Riffle's page N starts at `(N - 1) * limit`.
        case offset(limit: Int)
        /// Page 1 is the template as is; page N+1 adds `parameter=<cursor>`, the cursor read at the dotted
        /// `path` of page N's body. No cursor (missing, null, empty) ends the feed.
        case cursor(path: String, parameter: String)
        /// Page 1 is the template as is; page N+1 is the `rel="next"` URL of page N's `Link` header. No such
        /// link ends the feed.
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

    /// The placeholders the template must contain for this style.
    var requiredPlaceholders: [String] {
        switch style {
        case .pageNumber: ["{page}"]
        case .offset: ["{offset}"]
        case .cursor, .linkHeader: []
        }
    }

    /// The template with the page's placeholders filled in; nil means the URL depends on the previous page.
    func substitute(_ template: String, page number: Int) -> String {
        switch style {
        // The standard library's replacing, not Foundation's replacingOccurrences (an NSString round
        // trip): this runs for every page looked up.
        case .pageNumber(let first):
            return template.replacing("{page}", with: String(number - 1 + first))
        case .offset(let limit):
            return template.replacing("{offset}", with: String((number - 1) * limit))
                .replacing("{limit}", with: String(limit))
        case .cursor, .linkHeader:
            return template
        }
    }

    /// The URL of the page after one whose response is `response` with body `document`, or nil at the end.
    ///
    /// Only sequential styles answer: the others compute any page's URL from its number.
    /// - Parameter pageURL: the URL page N was fetched from, to which a cursor is added and a relative link resolved.
    public func nextURL(after pageURL: URL, headers: [String: String], document: JSONValue) -> URL? {
        switch style {
        case .pageNumber, .offset:
            return nil
        case .cursor(let path, let parameter):
            guard let cursor = document.value(atPath: path)?.scalarText, !cursor.isEmpty,
                  var components = URLComponents(url: pageURL, resolvingAgainstBaseURL: false) else { return nil }
            var items = (components.queryItems ?? []).filter { $0.name != parameter }
            items.append(URLQueryItem(name: parameter, value: cursor))
            components.queryItems = items
            // URLComponents leaves '+' alone in queries, where servers read it as a space.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            return components.url
        case .linkHeader:
            guard let link = headers["link"] ?? headers["Link"], let target = Self.nextLink(in: link) else { return nil }
            return URL(string: target, relativeTo: pageURL)?.absoluteURL
        }
    }

    /// Whether the page body says it is the last one (`hasMorePath` is `false`).
    public func saysLast(_ document: JSONValue) -> Bool {
        guard let hasMorePath else { return false }
        return document.value(atPath: hasMorePath)?.boolValue == false
    }

    /// The target of `rel="next"` in an RFC 8288 `Link` header value, e.g.
    /// `<https://api.github.com/…?page=2>; rel="next", <…>; rel="last"`.
    public static func nextLink(in header: String) -> String? {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let isNext = pieces.dropFirst().contains { parameter in
                let lower = parameter.lowercased().replacingOccurrences(of: " ", with: "")
                guard lower.hasPrefix("rel=") else { return false }
                let relations = lower.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return relations.split(separator: " ").contains("next")
            }
            if isNext { return String(target.dropFirst().dropLast()) }
        }
        return nil
    }
}
