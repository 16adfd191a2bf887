import Foundation

extension CommentRules {
    /// How the replies a "more" stub stands for are fetched and merged into the thread (the
    /// `expand` field of a feed's `comments`): Reddit's `morechildren`, and its "continue this
    /// thread" links.
    ///
    /// In `url` and `thread`, `{stub.PATH}` reads the stub as the API sent it, `{parent}` is the id of
    /// the comment the stub answers (`CommentRules.id`), and any other `{PATH}` reads the item, as in
    /// `CommentRules.url`. The first `{stub.PATH}` that is an array is the stub's list of replies: its
    /// values are joined with commas, at most `batch` of them a request, and the rest stays a stub.
    /// A stub whose list is empty (Reddit's "continue this thread": `count` 0, id `_`) is fetched
    /// from `thread` instead, read like the item's comments, and the parent's replies take its place.
    ///
    /// ```swift
    /// let more = CommentRules.Expansion(
    ///     url: "https://www.reddit.com/api/morechildren.json?api_type=json&raw_json=1&link_id=t3_{id}&children={stub.data.children}",
    ///     thread: "https://www.reddit.com/comments/{id}/_/{parent}.json?raw_json=1",
    ///     items: "json.data.things", parent: "data.parent_id", batch: 100)
    /// let reddit = CommentRules(url: "https://www.reddit.com/comments/{id}.json?raw_json=1", items: "1.data.children",
    ///                           children: "data.replies.data.children", author: "data.author", text: "data.body",
    ///                           more: "data.count", id: "data.id", expand: more)
    /// print(reddit.expand?.batch ?? 0)   // 100
    /// ```
    public struct Expansion: Sendable, Hashable {
        /// The URL that answers with a stub's replies as one flat list (`morechildren`).
        public var url: String
        /// The URL of the thread under the stub's parent, for a stub that lists no replies; nil
        /// when there is none, and such a stub stays.
        public var thread: String?
        /// Where the replies are in the answer of `url` (`json.data.things`); nil when the answer
        /// is the array itself.
        public var items: JSONPath?
        /// Where a reply names its parent (`data.parent_id`): a comment's id, or its id after a type
        /// prefix that ends in `_` (`t1_`). A reply whose parent is not in the answer takes the
        /// stub's place; the others go under their parent, in the answer's order.
        public var parent: JSONPath
        /// The most values of the stub's list sent in one request (Reddit: 100).
        public var batch: Int

        /// An expansion with these parts; see each property.
        public init(url: String, thread: String? = nil, items: JSONPath? = nil, parent: JSONPath, batch: Int = 100) {
            self.url = url
            self.thread = thread
            self.items = items
            self.parent = parent
            self.batch = max(1, batch)
        }
    }

    /// What to fetch for a stub, and how its answer is read.
    enum ExpansionRequest: Sendable, Equatable {
        /// A flat list of replies (`morechildren`); `rest` is the stub left for the values not sent.
        case replies(URL, rest: JSONValue?)
        /// The thread under the comment whose id is `parent` ("continue this thread").
        case thread(URL, parent: String)
    }

    /// The request for the stub at `index` of `thread`, a discussion of `item`.
    /// - Throws: `.validation` naming what is missing: no `expand` rules, not a stub, or a value a URL needs.
    func expansionRequest(for index: Int, in thread: CommentThread, of item: Item) throws(RiffleError) -> ExpansionRequest {
        guard let expansion = expand else {
            throw .validation(path: "comments.expand", expected: "a way to fetch the replies of a \"more\" stub", actual: "nothing")
        }
        guard thread.comments.indices.contains(index), thread.comments[index].more != nil, let stub = thread.comments[index].stub else {
            throw .validation(path: "comment \(index + 1)", expected: "a \"more\" stub", actual: "a comment")
        }
        let names = Self.placeholders(in: expansion.url)
        let listName = names.first { $0.hasPrefix("stub.") && stub.value(at: JSONPath(String($0.dropFirst(5))))?.arrayValue != nil }
        let list = listName.flatMap { stub.value(at: JSONPath(String($0.dropFirst(5))))?.arrayValue }?.compactMap(\.scalarText) ?? []
        let parent = thread.parentIndex(of: index).flatMap { thread.comments[$0].id }
        func value(_ name: String) -> String? {
            if name == "parent" { return parent }
            if name.hasPrefix("stub.") {
                return name == listName ? list.prefix(expansion.batch).joined(separator: ",")
                    : stub.value(at: JSONPath(String(name.dropFirst(5))))?.scalarText
            }
            return Self.value(name, of: item)
        }
        if listName == nil || !list.isEmpty {
            guard let url = Self.expand(expansion.url, lookup: value) else { throw Self.unfilled(expansion.url) }
            var rest: JSONValue?
            if let listName, list.count > expansion.batch {
                let remaining = list.dropFirst(expansion.batch).map(JSONValue.string)
                var left = stub.setting(.array(remaining), at: JSONPath(String(listName.dropFirst(5))).components)
                if let more, let count = stub.value(at: more)?.doubleValue {
                    left = left.setting(.number(String(max(remaining.count, Int(max(0, min(count, 1e9))) - expansion.batch))), at: more.components)
                }
                rest = left
            }
            return .replies(url, rest: rest)
        }
        guard let template = expansion.thread, let parent else {
            throw .validation(path: "comment \(index + 1)", expected: "a stub that lists its replies, or a thread URL for its parent",
                              actual: "an empty list")
        }
        guard let url = Self.expand(template, lookup: value) else { throw Self.unfilled(template) }
        return .thread(url, parent: parent)
    }

    private static func unfilled(_ template: String) -> RiffleError {
        let needed = placeholders(in: template).map { "$." + $0 }.joined(separator: ", ")
        return .validation(path: needed.isEmpty ? "$" : needed, expected: "a value for the URL of a stub's replies", actual: "nothing usable")
    }
}

extension CommentThread {
    /// The comments a "more" stub stood for, fetched: in reading order, each depth counted from the
    /// stub's own (0: in the stub's place). What the API still leaves out is a stub again.
    public struct Replies: Sendable, Equatable {
        /// The replies, with depths from the stub's.
        public var comments: [Comment]

        /// Replies of these comments; see `comments`.
        public init(comments: [Comment]) { self.comments = comments }
    }

    /// The comment `index` answers: the nearest one before it a level up; nil at the top level.
    public func parentIndex(of index: Int) -> Int? {
        guard comments.indices.contains(index), comments[index].depth > 0 else { return nil }
        let depth = comments[index].depth
        return comments[..<index].lastIndex { $0.depth < depth }
    }

    /// This thread with the stub at `index` replaced by `replies`, at the stub's depth.
    ///
    /// ```swift
    /// let thread = CommentThread(comments: [
    ///     .init(depth: 0, author: "ann", text: "First", createdAt: nil),
    ///     .init(depth: 1, author: nil, text: "", createdAt: nil, more: 2),
    /// ])
    /// let replies = CommentThread.Replies(comments: [.init(depth: 0, author: "bo", text: "A reply", createdAt: nil),
    ///                                                .init(depth: 1, author: "cy", text: "Its reply", createdAt: nil)])
    /// print(thread.replacing(stub: 1, with: replies).comments.map(\.depth))   // [0, 1, 2]
    /// ```
    public func replacing(stub index: Int, with replies: Replies) -> CommentThread {
        guard comments.indices.contains(index) else { return self }
        let depth = comments[index].depth
        var merged = Array(comments[..<index])
        merged.reserveCapacity(comments.count + replies.comments.count)
        merged += replies.comments.map { comment in
            var comment = comment
            comment.depth += depth
            return comment
        }
        merged += comments[(index + 1)...]
        return CommentThread(comments: merged)
    }

    /// The replies in an answer of `morechildren` shape: a flat list whose items name their parent.
    /// Each reply goes under its parent when the parent came before it in the answer, else in the
    /// stub's place; siblings keep the answer's order; `rest` (the stub for what was not asked) comes last.
    /// `item` is the story, as in `init(_:rules:item:)`.
    /// - Throws: `.validation` when the list is not where the rules say.
    static func replies(in answer: JSONValue, rules: CommentRules, item: Item? = nil, rest: JSONValue?) throws(RiffleError) -> Replies {
        guard let expansion = rules.expand else { return Replies(comments: []) }
        let top = expansion.items.map { answer.value(at: $0) } ?? answer
        guard let list = top?.arrayValue else {
            throw .validation(path: "$" + (expansion.items.map { "." + $0.description } ?? ""), expected: "an array of replies",
                              actual: top?.kind ?? "nothing")
        }
        var each = rules
        each.items = nil
        // Each reply with what it holds nested (depths from 0), and the reply its parent names.
        var blocks: [[Comment]] = []
        var children: [[Int]] = []
        var roots: [Int] = []
        var byID: [String: Int] = [:]
        for value in list {
            let block = try CommentThread(.array([value]), rules: each, item: item).comments
            guard !block.isEmpty else { continue }
            let index = blocks.count
            blocks.append(block)
            children.append([])
            let parent = value.value(at: expansion.parent)?.scalarText.flatMap { reference in
                byID[reference] ?? reference.firstIndex(of: "_").flatMap { byID[String(reference[reference.index(after: $0)...])] }
            }
            if let parent { children[parent].append(index) } else { roots.append(index) }
            if let id = block[0].id, byID[id] == nil { byID[id] = index }
        }
        var comments: [Comment] = []
        comments.reserveCapacity(blocks.reduce(0) { $0 + $1.count })
        var stack: [(block: Int, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (index, depth) = stack.popLast() {
            comments += blocks[index].map { comment in
                var comment = comment
                comment.depth += depth
                return comment
            }
            stack += children[index].reversed().map { ($0, depth + 1) }
        }
        if let rest, let stub = try CommentThread(.array([rest]), rules: each, item: item).comments.first { comments.append(stub) }
        return Replies(comments: comments)
    }

    /// The replies of the comment whose id is `parent` in `thread` (an answer read like the item's
    /// comments), with depths from the stub's.
    /// - Throws: `.validation` when the comment is not in it.
    static func replies(of parent: String, in thread: CommentThread) throws(RiffleError) -> Replies {
        guard let index = thread.comments.firstIndex(where: { $0.id == parent }) else {
            throw .validation(path: "$", expected: "comment \(DisplayText.line(parent)) and its replies", actual: "no such comment")
        }
        let base = thread.comments[index].depth + 1
        let replies = thread.comments[(index + 1)..<(index + 1 + thread.comments[index].descendants)].map { comment in
            var comment = comment
            comment.depth -= base
            return comment
        }
        return Replies(comments: replies)
    }
}

extension JSONValue {
    /// This value with `new` at `path` (object keys, array indices); unchanged where the path leads nowhere.
    func setting(_ new: JSONValue, at path: [String]) -> JSONValue {
        guard let first = path.first else { return new }
        switch self {
        case .object(var object):
            guard let at = object.members.firstIndex(where: { $0.key == first }) else { return self }
            object.members[at].value = object.members[at].value.setting(new, at: Array(path.dropFirst()))
            return .object(object)
        case .array(var array):
            guard let at = Int(first), array.indices.contains(at) else { return self }
            array[at] = array[at].setting(new, at: Array(path.dropFirst()))
            return .array(array)
        default:
            return self
        }
    }
}
