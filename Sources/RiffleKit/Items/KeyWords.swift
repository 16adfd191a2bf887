/// What the words of a key's name suggest about the value under it: one signal among several when a
/// plan is inferred (`FieldPlanner`), never the decision alone. `html_url` reads as the words `html`
/// and `url`, `createdAt` as `created` and `at`; each word known here adds its weight for each part,
/// and a path adds four fifths of its parent's hint (`title.rendered` is a title, `user.name` an
/// author's name, `thumbnails.default.url` an image).
///
/// The vocabulary is the one place key names live; the values decide between the keys it likes.
enum KeyWords {
    /// The weight of a word (or a key) for each part, in `FieldPlan.Part` order (and in the last lane
    /// how much it names a person: `login`, `username`, `name`), and the unit a count under it is shown with.
    struct Hint: Equatable {
        var weights = SIMD8<Float>()
        /// An index into `units` for a score or comment count, or -1.
        var scoreUnit: Int8 = -1
        var commentUnit: Int8 = -1

        subscript(part: FieldPlan.Part) -> Float { weights[part.rawValue] }

        /// How much the key names a person (`login`, `acct`, `display_name`): under an author's object,
        /// the member that is the author's name.
        var personName: Float { weights[7] }

        /// This key's own hint with its parent's added, four fifths of it; the units are the key's own,
        /// else the parent's (`reactions.total_count` counts reactions).
        func under(_ parent: Hint) -> Hint {
            var hint = self
            hint.weights += parent.weights * 0.8
            if hint.scoreUnit < 0 { hint.scoreUnit = parent.scoreUnit }
            if hint.commentUnit < 0 { hint.commentUnit = parent.commentUnit }
            return hint
        }

        /// The parent's hint carried through an array step (`artists.*.name`, `title.0`) unchanged.
        static func through(_ parent: Hint) -> Hint { parent }
    }

    /// Singular and plural of each unit a count is shown with.
    static let units: [(one: String, many: String)] = [
        ("point", "points"), ("upvote", "upvotes"), ("vote", "votes"), ("like", "likes"), ("favourite", "favourites"),
        ("favorite", "favorites"), ("star", "stars"), ("reaction", "reactions"), ("download", "downloads"), ("pull", "pulls"),
        ("view", "views"), ("comment", "comments"), ("reply", "replies"), ("answer", "answers"), ("post", "posts"),
        ("reblog", "reblogs"), ("repost", "reposts"), ("clap", "claps"), ("heart", "hearts"), ("play", "plays"),
        ("response", "responses"),
    ]

    /// Each unit's singular and plural as UTF-8 with a leading space (`" point"`, `" points"`), side by side.
    static let unitBytes: [[UInt8]] = units.flatMap { [Array(" \($0.one)".utf8), Array(" \($0.many)".utf8)] }

    private typealias W = (title: Float, link: Float, author: Float, time: Float, score: Float, comments: Float, id: Float, person: Float)
    private static func w(t: Float = 0, l: Float = 0, a: Float = 0, tm: Float = 0, s: Float = 0, c: Float = 0, i: Float = 0,
                          p: Float = 0) -> W {
        (t, l, a, tm, s, c, i, p)
    }

    /// Each known word (lowercase), what it suggests, and for counts their unit.
    private static let vocabulary: [(word: String, weights: W, unit: String?)] = [
        // Headlines, and what is the headline's body or a label rather than it.
        ("title", w(t: 3.5), nil), ("headline", w(t: 3.5), nil), ("subject", w(t: 2.5), nil), ("heading", w(t: 2.5), nil),
        ("caption", w(t: 2), nil), ("name", w(t: 2.5, a: 0.6, p: 0.6), nil), ("label", w(t: 1), nil), ("filename", w(t: 2), nil),
        ("summary", w(t: 1.2), nil), ("text", w(t: 1), nil), ("content", w(t: 0.5), nil), ("message", w(t: 1), nil),
        ("question", w(t: 1), nil), ("abstract", w(t: 0.8), nil), ("excerpt", w(t: 0.8), nil), ("description", w(t: -0.5), nil),
        ("snippet", w(t: 0.5), nil), ("body", w(t: -2), nil), ("full", w(t: 0.3), nil), ("tag", w(), nil),
        ("tags", w(t: -2), nil), ("labels", w(t: -2), nil), ("categories", w(t: -2), nil), ("topics", w(t: -1), nil),
        ("type", w(t: -2, a: -1), nil), ("kind", w(t: -2, a: -1), nil), ("status", w(t: -2, a: -1), nil), ("state", w(t: -2, a: -1), nil),
        ("visibility", w(t: -2), nil), ("language", w(t: -2), nil), ("lang", w(t: -2), nil), ("locale", w(t: -2), nil),
        ("format", w(t: -2), nil), ("mime", w(t: -2), nil), ("category", w(t: -1), nil), ("license", w(t: -2), nil),
        ("currency", w(t: -2), nil), ("country", w(t: -2), nil), ("color", w(t: -2), nil), ("colour", w(t: -2), nil),
        ("role", w(t: -2, a: -1), nil), ("mode", w(t: -2), nil), ("level", w(t: -1), nil), ("sha", w(t: -2, i: 0.5), nil),
        ("hash", w(t: -2, i: 0.5), nil), ("etag", w(t: -2), nil), ("checksum", w(t: -2), nil), ("digest", w(t: -2), nil),
        ("path", w(t: -2, l: 0.3), nil), ("version", w(t: -1), nil),
        // Links: a page a person opens, not the API's own address or an image.
        ("url", w(t: -2, l: 1), nil), ("urls", w(t: -2, l: 1), nil), ("link", w(t: -1.5, l: 1.2), nil), ("links", w(l: -1), nil),
        ("href", w(t: -2, l: 1), nil), ("uri", w(t: -2, l: 0.5, i: 1.5), nil), ("permalink", w(t: -2, l: 1), nil),
        ("html", w(l: 2), nil), ("web", w(l: 2), nil), ("alternate", w(l: 2), nil), ("canonical", w(l: 1.5), nil),
        ("share", w(l: 1), nil), ("page", w(l: 0.5), nil), ("external", w(l: 1), nil), ("spotify", w(l: 0.5), nil), ("npm", w(l: 2.5), nil),
        ("related", w(l: -2), nil), ("relationships", w(l: -2), nil), ("website", w(l: -1), nil), ("bugs", w(l: -1), nil),
        ("short", w(l: -0.3), nil), ("blog", w(l: -1), nil), ("twitter", w(l: -1), nil), ("github", w(l: -0.5), nil),
        ("homepage", w(l: 2), nil), ("repository", w(l: 0.6), nil), ("documentation", w(), nil), ("self", w(l: -3), nil),
        ("api", w(l: -4), nil), ("avatar", w(t: -2, l: -4), nil), ("image", w(l: -3), nil), ("images", w(l: -3), nil),
        ("img", w(l: -3), nil), ("icon", w(l: -3), nil), ("logo", w(l: -3), nil), ("thumbnail", w(l: -3), nil),
        ("thumbnails", w(l: -3), nil), ("thumb", w(l: -3), nil), ("photo", w(l: -3), nil), ("photos", w(l: -3), nil),
        ("picture", w(l: -3), nil), ("banner", w(l: -3), nil), ("cover", w(l: -2), nil), ("preview", w(l: -2), nil),
        ("media", w(l: -2), nil), ("reader", w(l: -1), nil), ("volume", w(), nil), ("sys", w(t: -1), nil),
        ("loc", w(t: -1), nil), ("location", w(t: -1), nil), ("place", w(t: -1), nil), ("address", w(t: -1), nil),
        ("city", w(t: -1), nil), ("region", w(t: -1), nil), ("venue", w(t: -1), nil), ("sci", w(t: -0.5), nil), ("com", w(), nil), ("file", w(l: -1), nil), ("asset", w(l: -2), nil), ("assets", w(l: -2), nil),
        ("embed", w(l: -3), nil), ("json", w(l: -3), nil), ("feed", w(l: -1), nil), ("rss", w(l: -2), nil),
        ("events", w(l: -2), nil), ("hooks", w(l: -2), nil), ("followers", w(l: -2), nil), ("following", w(l: -2), nil),
        ("avatars", w(l: -4), nil), ("gravatar", w(l: -4), nil), ("profile", w(l: -1), nil),
        // Authors (and who is not the author: the assignee, the last poster).
        ("author", w(t: -2, a: 3, i: -1.5), nil), ("authors", w(t: -2, a: 3), nil), ("by", w(a: 2.5), nil), ("byline", w(a: 2.5), nil),
        ("creator", w(t: -2, a: 2.5), nil), ("owner", w(t: -2, a: 2, i: -1.5), nil), ("user", w(t: -2, a: 2, i: -1.5), nil), ("users", w(a: 1), nil),
        ("username", w(t: -1, a: 1.2, p: 1.2), nil), ("login", w(t: -1, a: 1.2, p: 1.2), nil), ("handle", w(a: 1.2, p: 1.2), nil),
        ("acct", w(a: 1.3, p: 1.3), nil), ("screen", w(a: 0.5, p: 0.5), nil), ("submitter", w(t: -2, a: 2.5), nil), ("account", w(t: -2, a: 2, i: -1.5), nil), ("from", w(a: 1.5), nil),
        ("sender", w(a: 2), nil), ("reporter", w(t: -2, a: 2), nil), ("uploader", w(a: 2.5), nil), ("artist", w(a: 2.5), nil),
        ("artists", w(a: 2.5), nil), ("channel", w(t: -3, a: 1, i: -1.5), nil), ("publisher", w(a: 0.3), nil), ("namespace", w(a: 1), nil),
        ("maintainer", w(a: 1.5), nil), ("maintainers", w(a: 1.5), nil), ("writer", w(a: 2), nil), ("poster", w(l: -1, a: 1.5), nil),
        ("committer", w(a: 1), nil), ("email", w(a: 0.2, p: 0.2), nil), ("nickname", w(a: 1, p: 1), nil),
        ("fullname", w(a: 0.6, p: 0.6), nil), ("displayname", w(a: 0.6, p: 0.6), nil), ("assignee", w(a: -4), nil), ("via", w(a: -2), nil), ("reference", w(t: -1, a: -3), nil), ("references", w(t: -1, a: -3), nil),
        ("ownername", w(a: 2.5, p: 1), nil), ("promoter", w(a: 2), nil), ("organizer", w(a: 2), nil), ("family", w(a: 0.6, p: 1), nil),
        ("given", w(a: 0.3, p: 0.4), nil), ("surname", w(a: 0.6, p: 1), nil), ("forename", w(a: 0.3, p: 0.4), nil),
        ("firstname", w(a: 0.3, p: 0.4), nil), ("lastname", w(a: 0.6, p: 1), nil), ("assignees", w(a: -4), nil), ("mentions", w(a: -3), nil),
        ("last", w(t: -0.5, a: -5, tm: -0.5), nil), ("reviewer", w(a: -2), nil), ("reviewers", w(a: -2), nil),
        // Times: publication and creation before an update; an end or a due date is no item's time.
        ("published", w(tm: 3), nil), ("publish", w(tm: 2.5), nil), ("pub", w(tm: 2.5), nil), ("posted", w(tm: 2.5), nil),
        ("created", w(tm: 2.5), nil), ("creation", w(tm: 2.5), nil), ("create", w(tm: 2), nil), ("received", w(tm: 2.6), nil), ("dt", w(tm: 1.5), nil), ("year", w(tm: 2), nil), ("premiered", w(tm: 2.5), nil), ("aired", w(tm: 2), nil),
        ("publication", w(tm: 2.5), nil), ("datetaken", w(tm: 2.5), nil), ("dateupload", w(tm: 2), nil), ("parts", w(), nil), ("gmt", w(tm: 0.3), nil),
        ("sent", w(tm: 2.3), nil), ("date", w(tm: 1.5), nil), ("time", w(tm: 1), nil), ("datetime", w(tm: 1.5), nil),
        ("timestamp", w(tm: 2), nil), ("ts", w(tm: 2), nil), ("released", w(tm: 2), nil), ("release", w(tm: 1.5), nil),
        ("upload", w(tm: 2), nil), ("uploaded", w(tm: 2), nil), ("registered", w(tm: 2), nil), ("indexed", w(tm: 1.2), nil), ("issued", w(tm: 2), nil),
        ("updated", w(tm: 0.8), nil), ("modified", w(tm: 0.8), nil), ("edited", w(tm: 0.5), nil), ("changed", w(tm: 0.5), nil),
        ("closed", w(tm: -1.5), nil), ("merged", w(tm: -1.5), nil), ("deleted", w(tm: -1.5), nil), ("due", w(tm: -1.5), nil),
        ("expires", w(tm: -1.5), nil), ("expiry", w(tm: -1.5), nil), ("end", w(tm: -1.5), nil), ("ended", w(tm: -1.5), nil),
        ("start", w(tm: -1), nil), ("started", w(tm: -1), nil), ("birth", w(tm: -2), nil), ("birthday", w(tm: -2), nil),
        ("scheduled", w(tm: -1), nil), ("until", w(tm: -1.5), nil), ("since", w(tm: -0.5), nil),
        // Counts a person reads as how well an item did, with their unit.
        ("points", w(s: 3), "point"), ("point", w(s: 3), "point"), ("score", w(s: 3), "point"), ("ups", w(s: 3), "point"),
        ("upvotes", w(s: 3), "upvote"), ("upvote", w(s: 3), "upvote"), ("votes", w(s: 2.8), "vote"), ("vote", w(s: 2.8), "vote"),
        ("likes", w(s: 3), "like"), ("like", w(s: 3), "like"), ("favourites", w(s: 3), "favourite"), ("favourite", w(s: 3), "favourite"),
        ("favorites", w(s: 3), "favorite"), ("favorite", w(s: 3), "favorite"), ("stars", w(s: 3), "star"), ("star", w(s: 3), "star"),
        ("stargazers", w(s: 3), "star"), ("reactions", w(s: 2.5), "reaction"), ("reaction", w(s: 2.5), "reaction"),
        ("claps", w(s: 2.5), "clap"), ("hearts", w(s: 2.5), "heart"), ("kudos", w(s: 2), "like"), ("downloads", w(s: 2), "download"),
        ("download", w(t: -1, l: -2, s: 2), "download"), ("pulls", w(s: 2), "pull"), ("pull", w(s: 2), "pull"),
        ("views", w(s: 1), "view"), ("view", w(s: 1), "view"), ("plays", w(s: 1), "play"), ("reblogs", w(s: 1), "reblog"),
        ("reposts", w(s: 1), "repost"), ("recent", w(s: -1), nil), ("down", w(s: -5), nil), ("downs", w(s: -5), nil),
        ("downvotes", w(s: -5), nil), ("karma", w(s: -1), nil), ("total", w(s: 0.4, c: 0.4), nil), ("count", w(s: 0.2, c: 0.2), nil),
        ("comments", w(l: -0.5, c: 3), "comment"), ("comment", w(c: 3), "comment"), ("replies", w(c: 3), "reply"), ("reply", w(c: 3), "reply"),
        ("answers", w(c: 2.5), "answer"), ("answer", w(c: 2.5), "answer"), ("descendants", w(c: 3), "comment"),
        ("notes", w(c: 2), "comment"), ("discussion", w(c: 1), "comment"), ("posts", w(c: 1.2), "post"),
        ("responses", w(c: 2), "response"),
        // Ids: the item's own, not another thing's (`user_id`, `node_id`).
        ("id", w(t: -2, a: -1, i: 3), nil), ("ids", w(i: -1), nil), ("objectid", w(t: -2, i: 3), nil), ("uuid", w(t: -2, i: 2.5), nil),
        ("guid", w(t: -2, i: 2.5), nil), ("key", w(t: -1, i: 1.5), nil), ("slug", w(t: -2, i: 1), nil), ("cid", w(i: 0.5), nil),
        ("node", w(i: -1), nil), ("number", w(i: 1.5), nil),
        // Words that say nothing of the part but are words: a key made of them is understood.
        ("at", w(), nil), ("on", w(), nil), ("in", w(), nil), ("of", w(), nil), ("is", w(), nil), ("has", w(), nil), ("num", w(), nil),
        ("i", w(), nil), ("utc", w(tm: 0.3), nil), ("iso", w(), nil), ("unix", w(), nil), ("display", w(), nil), ("default", w(), nil),
        ("max", w(), nil), ("min", w(), nil), ("first", w(), nil), ("new", w(), nil), ("html5", w(), nil), ("x", w(), nil),
        ("info", w(), nil), ("data", w(), nil), ("attributes", w(), nil), ("fields", w(), nil), ("properties", w(), nil),
        ("record", w(), nil), ("item", w(), nil), ("meta", w(), nil), ("details", w(tm: -1.5), nil), ("value", w(), nil), ("raw", w(), nil),
        ("rendered", w(), nil), ("plain", w(), nil), ("en", w(), nil), ("main", w(), nil), ("primary", w(), nil), ("original", w(), nil), ("parent", w(tm: -1, i: -2), nil), ("story", w(i: -1.5), nil),
        ("thread", w(i: -1.5), nil), ("post", w(i: -1.5), nil),
    ]

    private static let table = KeyTable(vocabulary.map(\.word))
    private static let hints: [Hint] = vocabulary.map { entry in
        let weights = entry.weights
        var hint = Hint(weights: SIMD8(weights.title, weights.link, weights.author, weights.time, weights.score, weights.comments,
                                       weights.id, weights.person))
        if let unit = entry.unit, let index = units.firstIndex(where: { $0.one == unit }) {
            if weights.score > 0 { hint.scoreUnit = Int8(index) }
            if weights.comments > 0 { hint.commentUnit = Int8(index) }
        }
        return hint
    }

    /// Runs `body` with a reader of the vocabulary (valid only inside `body`): a page's keys are read
    /// through one, so the table's buffers are lent once per page rather than once per key.
    static func withReader<R>(_ body: (Reader) -> R) -> R {
        table.withMatcher { matcher in
            hints.withUnsafeBufferPointer { hints in body(Reader(matcher: matcher, hints: hints)) }
        }
    }

    /// The hint of a key's own words (UTF-8 `bytes`), outside a page's reading.
    static func hint(_ bytes: UnsafeBufferPointer<UInt8>) -> Hint {
        withReader { $0.hint(bytes) }
    }

    fileprivate static let name = table.number(of: "name")!, last = table.number(of: "last")!, first = table.number(of: "first")!
    fileprivate static let lastname = table.number(of: "lastname")!, firstname = table.number(of: "firstname")!

    /// The vocabulary seen through raw pointers.
    struct Reader {
        let matcher: KeyMatcher
        let hints: UnsafeBufferPointer<Hint>

        /// The hint of a key's own words (UTF-8 `bytes`): split at anything not a letter or digit and
        /// where a lowercase letter meets a capital (`receivedDateTime`), each word lowercased.
        func hint(_ bytes: UnsafeBufferPointer<UInt8>) -> Hint {
            var hint = Hint()
            guard !bytes.isEmpty else { return hint }
            // A word is at most 31 bytes; longer runs are not words this table knows.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { word in
                var length = 0
                var words = 0, known = 0
                var previous = -1
                func flush() {
                    defer { length = 0 }
                    guard length > 0 else { return }
                    words += 1
                    guard length < 32, var n = matcher.number(word.baseAddress!, length: length, readable: length) else {
                        previous = -1
                        return
                    }
                    known += 1
                    // `lastName`, `first_name`: one word, a person's surname or given name, whatever `last` says alone.
                    if n == KeyWords.name, previous == KeyWords.last || previous == KeyWords.first {
                        hint.weights -= hints[previous].weights
                        n = previous == KeyWords.last ? KeyWords.lastname : KeyWords.firstname
                    }
                    previous = n
                    let found = hints[n]
                    hint.weights += found.weights
                    if found.scoreUnit >= 0, hint.scoreUnit < 0 || found.weights[4] > 1 { hint.scoreUnit = found.scoreUnit }
                    if found.commentUnit >= 0, hint.commentUnit < 0 || found.weights[5] > 1 { hint.commentUnit = found.commentUnit }
                }
                var previousLower = false
                for byte in bytes {
                    let isUpper = byte >= 65 && byte <= 90, isLower = byte >= 97 && byte <= 122, isDigit = byte >= 48 && byte <= 57
                    guard isUpper || isLower || isDigit else {
                        flush()
                        previousLower = false
                        continue
                    }
                    if isUpper && previousLower { flush() }
                    if length < 40 { word[length] = isUpper ? byte | 0x20 : byte }
                    length += 1
                    previousLower = isLower || isDigit
                }
                flush()
                // A key with words not known here (`author_association`) is less surely what its known words say.
                if known < words, words > 0 { hint.weights *= Float(known) / Float(words) }
                return hint
            }
        }
    }
}
