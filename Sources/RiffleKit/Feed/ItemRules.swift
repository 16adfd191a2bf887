/// What zero-config detection looks for in an item, in order of preference: the one place the
/// vocabulary of real APIs lives (README's "Browsing" section says the same in prose).
///
/// Each part of an item is a list of dotted paths tried in turn, on the item and then on the objects
/// one level in (`lookInto`); the first usable value wins. A path may index an array
/// (`artists.0.name`). The table is built once into numbers (`KeyTable`, `program`) so that reading
/// an item is a few slot reads, not a walk over its keys per rule.
struct ItemRules: Sendable {
    /// The parts of an item the rules find.
    enum Part: Int, CaseIterable {
        case title, id, link, author, score, comments, time
    }

    /// The standard rules: an immutable constant, built once on first use (no state changes after).
    static let standard = ItemRules(
        paths: [
            .title: ["title", "headline", "subject", "full_name", "name", "tag_name", "summary", "text", "full_text",
                     "content", "message", "description", "display_name", "displayName", "filename", "login", "username"],
            .id: ["id", "objectID", "short_id", "uuid", "number", "key", "id.videoId", "uri", "slug"],
            // Every guessed link is a page, never an API endpoint (GitHub's `url` is skipped for `html_url`).
            .link: ["url", "html_url", "web_url", "webUrl", "link", "permalink_url", "external_urls.spotify", "webLink",
                    "links.html.href", "_links.html.href", "links.npm", "permalink", "short_id_url", "comments_url",
                    "story_url", "homepage", "repository", "documentation", "href"],
            // `author` first: only text counts, so an `author` object falls through to `author.login`...
            .author: ["author", "author.login", "author.username", "author.handle", "author.name", "author.displayName",
                      "by", "user.login", "user.username", "user.name", "user.screen_name", "user_profile.display_name",
                      "owner.display_name", "owner.login", "owner.username", "account.acct", "submitter_user.username",
                      "submitter_user", "publisher.username", "channelTitle", "reporter.displayName", "creator.displayName",
                      "creator.login", "from.emailAddress.name", "artists.0.name", "uploader", "username", "user", "owner",
                      "namespace"],
            .score: ["points", "score", "ups", "upvotes", "likeCount", "like_count", "favourites_count", "favorite_count",
                     "stargazers_count", "star_count", "positive_reactions_count", "public_reactions_count",
                     "reactions.total_count", "reactions.totalCount", "votes.votes", "votes", "vote_count",
                     "statistics.likeCount", "downloads", "pull_count", "statistics.viewCount", "view_count", "views"],
            .comments: ["num_comments", "comments_count", "comment_count", "commentCount", "comments.totalCount",
                        "descendants", "replies_count", "reply_count", "replyCount", "answer_count", "user_notes_count",
                        "userNotesCount", "comments", "statistics.commentCount"],
            // A mail's receipt, an article's or release's publication, before a record's creation.
            .time: ["receivedDateTime", "published_at", "publishedAt", "created_at", "createdAt", "created_utc",
                    "created_at_i", "creation_date", "created", "createdDateTime", "published", "date", "time", "timestamp",
                    "ts", "upload-time", "upload_time_iso_8601", "release_date", "indexedAt", "updated_at", "updatedAt",
                    "last_updated", "updated", "lastModifiedDateTime"],
        ],
        // Singular and plural of what each count counts; comment paths not listed count comments.
        units: [
            "points": "point", "score": "point", "ups": "point", "upvotes": "upvote", "likeCount": "like",
            "like_count": "like", "favourites_count": "favourite", "favorite_count": "favorite", "stargazers_count": "star",
            "star_count": "star", "positive_reactions_count": "reaction", "public_reactions_count": "reaction",
            "reactions.total_count": "reaction", "reactions.totalCount": "reaction", "votes.votes": "vote", "votes": "vote",
            "vote_count": "vote", "statistics.likeCount": "like", "downloads": "download", "pull_count": "pull",
            "statistics.viewCount": "view", "view_count": "view", "views": "view",
            "replies_count": "reply|replies", "reply_count": "reply|replies", "replyCount": "reply|replies",
            "answer_count": "answer",
        ],
        // Objects whose members are the item's own fields: JSON:API, YouTube, npm, Bluesky, Jira, GraphQL, git commits.
        lookInto: ["attributes", "snippet", "package", "record", "fields", "node", "commit"],
        // An element with none of the item keys of its own and one of these holding an object is a
        // wrapper: Reddit's {kind, data}, GraphQL's {cursor, node}, Bluesky's {post, reply, reason}.
        wrappers: ["data", "node", "post"])

    /// Flags per key number.
    static let titleFlag: UInt8 = 1, timeFlag: UInt8 = 2

    let keys: KeyTable
    /// Per part, its paths as `[unit, length, key numbers...]`; the first `Part.allCases.count + 1`
    /// entries are where each part's paths start.
    private let program: [Int]
    /// Score and comment units, singular at the number `program` gives and plural after it; -1 for
    /// none. Each is `" point"`-style UTF-8 (a leading space) in `unitBytes`, at `unitOffsets[n] ..< unitOffsets[n + 1]`.
    private let unitBytes: [UInt8]
    private let unitOffsets: [Int]
    /// `titleFlag`/`timeFlag` per key number: keys that begin a title or a time path.
    private let flags: [UInt8]
    let lookInto: [Int]
    let wrappers: [Int]

    private init(paths: [Part: [String]], units: [String: String], lookInto: [String], wrappers: [String]) {
        var keys: [String] = []
        func number(_ key: String) -> Int {
            if let n = keys.firstIndex(of: key) { return n }
            keys.append(key)
            return keys.count - 1
        }
        var unitNames: [String] = []
        var program = [Int](repeating: 0, count: Part.allCases.count + 1)
        var firstKeys: [Part: [Int]] = [:]
        for part in Part.allCases {
            program[part.rawValue] = program.count
            for path in paths[part] ?? [] {
                let components = path.split(separator: ".").map { number(String($0)) }
                var unit = -1
                if let name = units[path] ?? (part == .comments ? "comment" : nil) {
                    // Stored as singular then plural, side by side.
                    let forms = name.split(separator: "|").map(String.init)
                    let pair = [forms[0], forms.count > 1 ? forms[1] : forms[0] + "s"]
                    if let found = stride(from: 0, to: unitNames.count, by: 2).first(where: { unitNames[$0] == pair[0] }) {
                        unit = found
                    } else {
                        unit = unitNames.count
                        unitNames += pair
                    }
                }
                program += [unit, components.count] + components
                firstKeys[part, default: []].append(components[0])
            }
        }
        program[Part.allCases.count] = program.count
        self.lookInto = lookInto.map(number)
        self.wrappers = wrappers.map(number)
        var flags = [UInt8](repeating: 0, count: keys.count)
        for n in firstKeys[.title] ?? [] { flags[n] |= Self.titleFlag }
        for n in firstKeys[.time] ?? [] { flags[n] |= Self.timeFlag }
        self.keys = KeyTable(keys)
        self.program = program
        unitBytes = unitNames.flatMap { Array((" " + $0).utf8) }
        unitOffsets = unitNames.reduce(into: [0]) { offsets, name in offsets.append(offsets.last! + name.utf8.count + 1) }
        self.flags = flags
    }

    /// Runs `body` with raw views of the table (valid only inside `body`).
    func withView<R, E: Error>(_ body: (View) throws(E) -> R) throws(E) -> R {
        try keys.withMatcher { (matcher: KeyMatcher) throws(E) -> R in
            let result: Result<R, E> = program.withUnsafeBufferPointer { program in
                flags.withUnsafeBufferPointer { flags in
                    lookInto.withUnsafeBufferPointer { lookInto in
                        wrappers.withUnsafeBufferPointer { wrappers in
                            unitBytes.withUnsafeBufferPointer { unitBytes in
                                unitOffsets.withUnsafeBufferPointer { unitOffsets in
                                    let view = View(matcher: matcher, program: program.baseAddress!, flags: flags.baseAddress!,
                                                    lookInto: lookInto, wrappers: wrappers, unitBytes: unitBytes.baseAddress!,
                                                    unitOffsets: unitOffsets.baseAddress!)
                                    do throws(E) { return .success(try body(view)) } catch { return .failure(error) }
                                }
                            }
                        }
                    }
                }
            }
            return try result.get()
        }
    }

    /// The table through raw pointers, so reading an item costs no retain or release.
    struct View {
        let matcher: KeyMatcher
        fileprivate let program: UnsafePointer<Int>
        fileprivate let flags: UnsafePointer<UInt8>
        /// Key numbers of the objects looked into, and of the wrappers, in order.
        let lookInto: UnsafeBufferPointer<Int>
        let wrappers: UnsafeBufferPointer<Int>
        fileprivate let unitBytes: UnsafePointer<UInt8>
        fileprivate let unitOffsets: UnsafePointer<Int>

        /// Unit `n` as UTF-8 with a leading space (" point"): singular at a path's unit number, plural after it.
        @inline(__always) func unit(_ n: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: unitBytes + unitOffsets[n], count: unitOffsets[n &+ 1] &- unitOffsets[n])
        }

        /// The `titleFlag`/`timeFlag` bits of key `number`.
        @inline(__always) func flags(of number: Int) -> UInt8 { flags[number] }

        /// Calls `body` with each path of `part` in order (its unit, first key and the keys after
        /// it) until `body` returns a value.
        @inline(__always) func first<T>(_ part: Part, _ body: (_ unit: Int, _ first: Int, _ rest: UnsafeBufferPointer<Int>) -> T?) -> T? {
            var p = program[part.rawValue]
            let end = program[part.rawValue &+ 1]
            while p < end {
                let unit = program[p], length = program[p &+ 1]
                let keys = program + (p &+ 2)
                if let found = body(unit, keys[0], UnsafeBufferPointer(start: keys + 1, count: length &- 1)) { return found }
                p &+= 2 &+ length
            }
            return nil
        }
    }
}
