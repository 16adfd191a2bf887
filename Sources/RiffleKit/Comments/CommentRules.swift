import Foundation

/// Where a feed's comments are and how to read them: the `comments` field of a feed in the presets
/// or a feeds file (README's "Comments" section).
///
/// `url` and `page` are templates whose `{path}` placeholders are dotted paths into the item
/// (`{objectID}`, `{short_id}`, `{permalink}`); a template that is one placeholder takes a whole
/// URL from the item (`{comments_url}`). The other fields are dotted paths into the answer
/// (`items`, where numbers index arrays: Reddit's `1.data.children`) and into each comment.
///
/// `permalink` is a template too, whose placeholders are read in the comment first, then in the
/// item (`{id}` is the comment's, `{objectID}` the story's): a comment's own page, what `Y` copies
/// in the comment view.
///
/// ```swift
/// let hn = CommentRules(url: "https://hn.algolia.com/api/v1/items/{objectID}", items: "children",
///                       children: "children", author: "author", text: "text", time: "created_at_i",
///                       permalink: "https://news.ycombinator.com/item?id={id}")
/// let item = Item(id: "42280701", title: "Show HN", details: [], url: nil, createdAt: nil, fields: ["objectID": "42280701"])
/// hn.url(for: item)   // https://hn.algolia.com/api/v1/items/42280701
/// let comment: JSONValue = ["id": 42280788, "author": "tptacek", "text": "<p>Neat</p>"]
/// hn.permalink(for: comment, of: item)   // https://news.ycombinator.com/item?id=42280788
/// ```
public struct CommentRules: Sendable, Hashable {
    /// The URL of an item's comments (JSON).
    public var url: String
    /// The discussion page a browser shows (`C`); nil when the feed names none.
    public var page: String?
    /// Where the top-level comments are in the answer; nil when the answer is the array itself.
    public var items: JSONPath?
    /// Where a comment's replies are, for nested threads (HN, Reddit).
    public var children: JSONPath?
    /// A comment's author, text (HTML is read as text) and time (ISO 8601 or Unix seconds).
    public var author: JSONPath?
    /// The path of a comment's text.
    public var text: JSONPath
    /// The path of a comment's time.
    public var time: JSONPath?
    /// A comment's depth, for threads sent as one flat list in order (Lobsters).
    public var depth: JSONPath?
    /// How many replies a stub stands for (Reddit's `kind: more`, `data.count`).
    public var more: JSONPath?
    /// A comment's id (HN's `id`, Reddit's `data.id`, Lobsters' `short_id`): what tells a comment
    /// new since the last visit.
    public var id: JSONPath?
    /// Whether a comment's author speaks as a moderator: true, or the text `moderator` or `admin`
    /// (Reddit's `data.distinguished`, Lobsters' `is_moderator`).
    public var moderator: JSONPath?
    /// The template of a comment's own page (HN's `https://news.ycombinator.com/item?id={id}`,
    /// Reddit's `https://www.reddit.com{data.permalink}`, Lobsters' `{short_id_url}`); nil when the
    /// feed names none.
    public var permalink: String?
    /// How a stub's missing replies are fetched (Reddit's `morechildren`); nil when the feed names
    /// no way, and stubs stay as they are.
    public var expand: Expansion?

    /// Rules with these paths; see each property.
    public init(url: String, page: String? = nil, items: JSONPath? = nil, children: JSONPath? = nil, author: JSONPath? = nil,
                text: JSONPath, time: JSONPath? = nil, depth: JSONPath? = nil, more: JSONPath? = nil, id: JSONPath? = nil,
                moderator: JSONPath? = nil, permalink: String? = nil, expand: Expansion? = nil) {
        self.permalink = permalink
        self.expand = expand
        self.url = url
        self.page = page
        self.items = items
        self.children = children
        self.author = author
        self.text = text
        self.time = time
        self.depth = depth
        self.more = more
        self.id = id
        self.moderator = moderator
    }

    /// The URL of `item`'s comments; nil when the item lacks a value the template needs, or the
    /// result would not be an http(s) URL on the template's host.
    public func url(for item: Item) -> URL? { Self.expand(url, for: item) }

    /// The discussion page of `item` for a browser; nil when the feed names none or the item lacks what it needs.
    public func page(for item: Item) -> URL? { page.flatMap { Self.expand($0, for: item) } }

    /// The page of `comment` (as the answer holds it) under `item`; nil when the feed names none or
    /// neither has what the template needs.
    public func permalink(for comment: JSONValue, of item: Item) -> URL? {
        permalink.flatMap { template in
            Self.expand(template) { name in comment.value(at: JSONPath(name))?.scalarText ?? Self.value(name, of: item) }
        }
    }

    /// The placeholders of `template`, in order (`{objectID}` → `objectID`).
    static func placeholders(in template: String) -> [String] {
        var found: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            found.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    /// Whether `template` can make URLs: an http(s) URL with a host once its placeholders are
    /// filled, or a single placeholder (a whole URL from the item).
    static func isUsable(_ template: String) -> Bool {
        let names = placeholders(in: template)
        if names.count == 1, template == "{\(names[0])}" { return true }
        return host(of: template) != nil
    }

    /// The host of `template` with its placeholders filled in with a plain path segment.
    private static func host(of template: String) -> String? {
        // Each placeholder as `placeholders(in:)` reads it, filled by a scan (Foundation's
        // replacingOccurrences set up its locale machinery on a first frame's path).
        var sample = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            sample += rest[..<open]
            sample += "/x"
            rest = rest[rest.index(after: close)...]
        }
        sample += rest
        guard let url = URL(string: sample), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return host
    }

    /// What may go into a URL as it is: RFC 3986's unreserved characters and `/`.
    private static let pathCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")

    static func expand(_ template: String, for item: Item) -> URL? { expand(template) { value($0, of: item) } }

    /// The text of placeholder `name` in `item`: the field at that path (`id` falls back to the item's id).
    static func value(_ name: String, of item: Item) -> String? {
        item.fields.value(at: JSONPath(name))?.scalarText ?? (name == "id" ? item.id : nil)
    }

    /// `template` with each placeholder filled by `lookup` (see `url(for:)`).
    static func expand(_ template: String, lookup: (String) -> String?) -> URL? {
        let names = placeholders(in: template)
        func value(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        if names.count == 1, template == "{\(names[0])}" {
            // A whole URL from the item: used as it is, when it is one.
            guard let text = value(names[0]), let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
            return url
        }
        guard let host = host(of: template) else { return nil }
        var result = template
        for name in names {
            // A value never climbs the path, adds a query or changes the host: `..` is refused and
            // anything but path characters is percent-encoded.
            guard let text = value(name), !text.contains(".."),
                  let encoded = text.addingPercentEncoding(withAllowedCharacters: pathCharacters) else { return nil }
            result = result.replacingOccurrences(of: "{\(name)}", with: encoded)
        }
        guard let url = URL(string: result), url.host == host else { return nil }
        return url
    }
}
