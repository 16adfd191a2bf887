import Foundation

/// An item's discussion as the browser shows it: every comment in reading order (a reply right
/// after its parent), each with its depth, so a thread folds by skipping what follows it deeper.
///
/// ```swift
/// let hn = CommentRules(url: "https://hn.algolia.com/api/v1/items/{objectID}", items: "children",
///                       children: "children", author: "author", text: "text", time: "created_at_i")
/// let answer = Data(#"{"children": [{"author": "pg", "text": "<p>Hi &amp; welcome</p>", "children": []}]}"#.utf8)
/// let thread = try CommentThread(JSONParser.parse(answer), rules: hn)
/// for comment in thread.comments { print(String(repeating: "  ", count: comment.depth), comment.author ?? "?") }
/// ```
public struct CommentThread: Sendable, Equatable {
    /// One comment.
    public struct Comment: Sendable, Equatable {
        /// 0 for a reply to the item, 1 for a reply to that, and so on.
        public var depth: Int
        /// Who wrote it, when the API says.
        public var author: String?
        /// The text as plain text (HTML read as text); "[deleted]" when the API kept only its place.
        public var text: String
        /// When it was written, when the API says.
        public var createdAt: Date?
        /// How many comments follow it deeper: its replies, theirs, and so on.
        public var descendants: Int
        /// For a stub that stands for replies the API left out (Reddit's "load more"): how many; 0
        /// when it does not say.
        public var more: Int?
        /// Its id, when the rules say where it is: new comments are told by it.
        public var id: String?
        /// Whether its author speaks as a moderator, when the API says so.
        public var isModerator: Bool
        /// What its markup set apart (italics, code, quotes) and its links, numbered in `text`
        /// (`MarkedText`: its `text` is `text`).
        public var marks: [MarkedText.Mark]
        /// Its links, in the order of their numbers in `text` ("[1]" is the first).
        public var links: [URL]
        /// Its own page (the rules' `permalink`), when the feed names one.
        public var permalink: URL?
        /// For a stub, the stub as the API sent it, when the rules say how to expand it
        /// (`CommentRules.expand`): what its replies are fetched with.
        public var stub: JSONValue?

        /// A comment with these parts.
        public init(depth: Int, author: String?, text: String, createdAt: Date?, descendants: Int = 0, more: Int? = nil,
                    id: String? = nil, isModerator: Bool = false, marks: [MarkedText.Mark] = [], links: [URL] = [],
                    permalink: URL? = nil, stub: JSONValue? = nil) {
            self.stub = stub
            self.depth = depth
            self.author = author
            self.text = text
            self.marks = marks
            self.links = links
            self.permalink = permalink
            self.createdAt = createdAt
            self.descendants = descendants
            self.more = more
            self.id = id
            self.isModerator = isModerator
        }
    }

    /// Every comment, in reading order.
    public var comments: [Comment]
    /// Where the thread's answer came from, as for a page (`Page.Source`): `PageLoader.comments(for:policy:)`
    /// says; a thread read or made here is `.network`, as the API sent it.
    public var source: CachedResponse.Source = .network

    /// A thread of `comments` in reading order; each one's `descendants` is counted from the depths.
    public init(comments: [Comment]) {
        self.comments = comments
        countDescendants()
    }

    /// The comments in `answer` as `rules` say where they are.
    /// - Parameters:
    ///   - answer: the comments' JSON, as the API sent it.
    ///   - rules: where the comments and their parts are in it.
    ///   - item: the story they are about: its discussion page (`rules.page`) is what relative links
    ///     resolve against, and its fields fill a permalink's placeholders the comment lacks.
    /// - Throws: `RiffleError.validation` when `rules.items` does not lead to an array.
    public init(_ answer: JSONValue, rules: CommentRules, item: Item? = nil) throws(RiffleError) {
        let context = Context(rules: rules, item: item, base: item.flatMap(rules.page(for:)))
        let top = rules.items.map { answer.value(at: $0) } ?? answer
        guard let list = top?.arrayValue else {
            throw .validation(path: "$" + (rules.items.map { "." + $0.description } ?? ""), expected: "an array of comments",
                              actual: top?.kind ?? "nothing")
        }
        var comments: [Comment] = []
        if rules.children != nil {
            // Nested: a depth-first walk with a stack of its own, whatever the nesting.
            var stack: [(value: JSONValue, depth: Int)] = list.reversed().map { ($0, 0) }
            while let (value, depth) = stack.popLast() {
                let replies = rules.children.flatMap { value.value(at: $0)?.arrayValue } ?? []
                if let comment = Self.comment(value, depth: depth, context, hasReplies: !replies.isEmpty) {
                    comments.append(comment)
                    stack += replies.reversed().map { ($0, depth + 1) }
                }
            }
        } else {
            // Flat, in reading order, each with its depth: a depth may go one deeper than the comment
            // before it, never more (a jump would hang a reply off nothing).
            var previous = -1
            for value in list {
                let stated = rules.depth.flatMap { value.value(at: $0)?.doubleValue }.map { Int(max(0, min($0, 1e6))) } ?? 0
                let depth = min(stated, previous + 1)
                if let comment = Self.comment(value, depth: depth, context, hasReplies: false) {
                    comments.append(comment)
                    previous = depth
                }
            }
        }
        self.init(comments: comments)
    }

    /// What every comment of a thread is read with.
    private struct Context {
        var rules: CommentRules
        var item: Item?
        /// The discussion page, which relative links resolve against.
        var base: URL?
    }

    /// One comment; nil for what is not one (not an object, or nothing to show and no replies).
    private static func comment(_ value: JSONValue, depth: Int, _ context: Context, hasReplies: Bool) -> Comment? {
        guard case .object = value else { return nil }
        let rules = context.rules
        let author = rules.author.flatMap { name(value.value(at: $0)) }
        let time = rules.time.flatMap { value.value(at: $0) }.flatMap(Timestamp.date(from:))
        let raw = value.value(at: rules.text)?.stringValue ?? ""
        let marked = MarkedText(reading: raw, base: context.base)
        let text = marked.text
        if text.isEmpty, author == nil, let more = rules.more.flatMap({ value.value(at: $0)?.doubleValue }) {
            return Comment(depth: depth, author: nil, text: "", createdAt: nil, more: Int(max(0, min(more, 1e9))),
                           stub: rules.expand == nil ? nil : value)
        }
        guard !text.isEmpty || author != nil || hasReplies else { return nil }
        let id = rules.id.flatMap { value.value(at: $0)?.scalarText }.map(DisplayText.line).flatMap { $0.isEmpty ? nil : $0 }
        let moderator = rules.moderator.flatMap { value.value(at: $0) }.map { flag in
            flag.boolValue ?? ["moderator", "admin"].contains(flag.stringValue?.lowercased() ?? "")
        } ?? false
        let permalink = context.item.flatMap { rules.permalink(for: value, of: $0) }
        return Comment(depth: depth, author: author, text: text.isEmpty ? "[deleted]" : text, createdAt: time, id: id, isModerator: moderator,
                       marks: text.isEmpty ? [] : marked.marks, links: marked.links, permalink: permalink)
    }

    /// An author's name: text, or the `username`/`name`/`login` of an object (older Lobsters answers).
    private static func name(_ value: JSONValue?) -> String? {
        let text = value?.stringValue ?? ["username", "name", "login"].lazy.compactMap { value?[$0]?.stringValue }.first
        return text.map(DisplayText.line).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Fills `descendants`: each comment's run of deeper comments after it.
    private mutating func countDescendants() {
        var open: [Int] = []  // comments whose run is still going, shallowest first
        for index in comments.indices {
            while let last = open.last, comments[last].depth >= comments[index].depth {
                comments[last].descendants = index - last - 1
                open.removeLast()
            }
            open.append(index)
        }
        for last in open { comments[last].descendants = comments.count - last - 1 }
    }
}
