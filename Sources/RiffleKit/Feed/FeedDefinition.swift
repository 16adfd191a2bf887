import Foundation

/// A named feed as a feeds file or the presets describe it: a `Feed` waiting for its optional argument.
///
/// ```swift
/// let catalog = try FeedCatalog.parse(data, file: "presets.json")
/// let swift = try catalog["github"]!.feed(argument: "apple/swift")
/// ```
package struct FeedDefinition: Sendable, Equatable {
    /// The text that stands for the argument in `template` (`github:apple/swift` → `apple/swift`).
    package static let argumentPlaceholder = "{arg}"

    /// What the user types: `hn`, `github`.
    package var name: String
    /// One line saying what the feed is.
    package var description: String
    /// What the argument is, when the feed takes one (`owner/repo`); nil when it takes none.
    package var argument: String?
    /// The URL template, possibly with `{arg}`.
    package var template: String
    /// How the next page is reached (`Feed.pagination`).
    package var pagination: Pagination
    /// Where the items are in a page (`Feed.itemPath`).
    package var itemPath: JSONPath?
    /// Which item fields are shown (`Feed.fields`).
    package var fields: FieldMapping
    /// Header templates, `${NAME}` unexpanded (`Feed.headers`).
    package var headers: [String: String]
    /// Extra query parameters (`Feed.query`).
    package var query: [String: String]
    /// The query parameters whose values are credentials (`Feed.secrets`); nil: by their names.
    package var secrets: Set<String>? = nil
    /// The failure envelope, if any (`Feed.envelope`).
    package var envelope: EnvelopeRule?
    /// Seconds a stored page counts as fresh (`Feed.maxAge`).
    package var maxAge: TimeInterval?
    /// Where the items' comments are (`Feed.comments`).
    package var comments: CommentRules?
    /// The items not to list (`Feed.hide`), as the feed's entry in the file says; the file's own
    /// list is added when the feed is opened.
    package var hide: [HideRule] = []
    /// The preset it was made from, as the file names it (`reddit:rust`, `hn`); nil when it names none.
    package var preset: String?

    /// How the user opens it: `hn`, or `github:OWNER/REPO`.
    package var usage: String { argument.map { "\(name):\($0)" } ?? name }

    /// The feed, with `argument` put in place of `{arg}`.
    /// - Throws: `FeedDefinition.ArgumentError` when an argument is missing, unexpected or has unsafe characters.
    package func feed(argument value: String?) throws(ArgumentError) -> Feed {
        var template = self.template
        var displayName = name
        switch (argument, value) {
        case (nil, nil): break
        case (nil, let value?): throw .unexpected(feed: name, argument: value)
        case (let expected?, nil), (let expected?, ""?): throw .missing(feed: name, expected: expected)
        case (_, let value?):
            // The argument lands in a URL path: letters, digits and a few separators only, so it cannot
            // reach another host or smuggle a query.
            guard value.unicodeScalars.allSatisfy({ Self.argumentCharacters.contains($0) }), !value.contains("..") else {
                throw .invalid(feed: name, argument: value)
            }
            template = template.replacingOccurrences(of: Self.argumentPlaceholder, with: value)
            displayName = "\(name):\(value)"
        }
        do {
            var feed = try Feed(template: template, name: displayName, pagination: pagination, itemPath: itemPath, fields: fields,
                                headers: headers, query: query, envelope: envelope, maxAge: maxAge, secrets: secrets)
            feed.comments = comments
            feed.hide = hide
            return feed
        } catch {
            throw .template(feed: name, error)
        }
    }

    private static let argumentCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_./"))

    /// What is wrong with a feed's argument; each reads as one line.
    package enum ArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The feed needs an argument that was not given.
        case missing(feed: String, expected: String)
        /// An argument was given to a feed that takes none.
        case unexpected(feed: String, argument: String)
        /// The argument holds other characters than letters, digits and `- _ . /`.
        case invalid(feed: String, argument: String)
        /// The URL the argument makes is not a valid feed template.
        case template(feed: String, Feed.TemplateError)

        /// One line naming the feed and what is wrong.
        package var description: String {
            switch self {
            case .missing(let feed, let expected): "'\(feed)' needs an argument: riffle \(feed):\(expected)"
            case .unexpected(let feed, let argument): "'\(feed)' takes no argument, got '\(argument)'"
            case .invalid(let feed, let argument): "'\(feed)': the argument '\(argument)' may hold only letters, digits and - _ . /"
            case .template(let feed, let error): "'\(feed)': \(error)"
            }
        }
    }
}
