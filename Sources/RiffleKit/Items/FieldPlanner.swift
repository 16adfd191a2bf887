/// Infers where each part of an item comes from, by what the values look like across a page's items
/// (`PathEvidence`) with the key's name as one signal among several (`KeyWords`).
///
/// Each part has a score per path; the best path is chosen, and the next ones are tried in turn on an
/// item that lacks it (a story without a `url` gets its `comments_url`). A headline is text that reads
/// like one: words and spaces, a sensible length, different on most items; not a URL, a path, an id,
/// a date, a number or a value repeated on every row. A link is an http(s) URL (or a path from the
/// server's root) of a page, not of the API or an image. An author, a time, a count or an id is a
/// value of that shape under a key that says so.
enum FieldPlanner {
    /// The most items a plan looks at: all of a page of that many or fewer, else that many spread
    /// evenly over the page.
    static let maxSample = 10

    /// The element indices (0-based positions) to look at in an array of `count` elements.
    static func sample(_ count: Int, limit: Int = maxSample) -> [Int] {
        guard count > limit else { return Array(0..<count) }
        return (0..<limit).map { $0 * (count - 1) / (limit - 1) }
    }

    /// A path's score for one part, best first.
    struct Scored: Equatable {
        var path: Int
        var score: Float
    }

    /// The paths worth reading for each part, best first (at most four), from `evidence` over `items` items.
    static func rank(_ evidence: [PathEvidence], items: Int) -> [[Scored]] {
        var ranked = [[Scored]](repeating: [], count: FieldPlan.Part.allCases.count)
        let n = Float(max(1, items))
        for (index, e) in evidence.enumerated() {
            for part in FieldPlan.Part.allCases {
                guard let score = score(e, for: part, items: n), score >= part.threshold else { continue }
                insert(Scored(path: index, score: score), into: &ranked[part.rawValue], evidence)
            }
        }
        return ranked
    }

    /// Keeps the best four, by score, then the shallower path, then the earlier one.
    private static func insert(_ scored: Scored, into list: inout [Scored], _ evidence: [PathEvidence]) {
        func better(_ a: Scored, _ b: Scored) -> Bool {
            if a.score != b.score { return a.score > b.score }
            let ea = evidence[a.path], eb = evidence[b.path]
            if ea.depth != eb.depth { return ea.depth < eb.depth }
            return ea.order < eb.order
        }
        var at = list.count
        while at > 0, better(scored, list[at - 1]) { at -= 1 }
        guard at < 4 else { return }
        list.insert(scored, at: at)
        if list.count > 4 { list.removeLast() }
    }

    /// The score of the values at `e` as `part`, or nil when they cannot be that part at all.
    static func score(_ e: PathEvidence, for part: FieldPlan.Part, items n: Float) -> Float? {
        /// Present on fewer items than all: a title must be on (nearly) every item; another part is
        /// looked for on the next path where it is missing.
        let coverage = Float(e.present) / n - 1
        let depth = Float(e.depth)
        let strings = Float(e.strings)
        let values = Float(Int(e.strings) + Int(e.numbers))
        let distinct = values == 0 ? 0 : Float(e.distinct) / values
        /// Repeated on (nearly) every row: an enum, a type tag, the same publisher. (Editions of one book
        /// share a few titles: that is not it.)
        let repeated: Float = values >= 3 && (e.distinct <= 1 || distinct < 0.3) ? 1 : 0
        func share(_ shape: ValueShape) -> Float { Float(e.share(shape)) }
        let hint = e.hint[part]
        switch part {
        case .title:
            guard e.strings > 0, strings >= 0.5 * Float(e.present) else { return nil }
            // Mostly dates: never a headline, even for items that have nothing better (they are untitled).
            guard share(.date) < 0.5 else { return nil }
            let prose = max(share(.spaced), share(.nonASCII) * 0.8)
            var score = 1.5 * prose + 2 * distinct - 3 * repeated
            let mean = e.meanBytes
            score += mean < 3 ? -1.5 : mean <= 160 ? 1 : mean <= 400 ? 0.3 : mean <= 2000 ? -1 : -2.5
            score -= 5 * (share(.url) + share(.relative)) + 4 * share(.date) + 4 * share(.numeric) + 2.5 * share(.idlike)
                + 1.5 * share(.slug) + share(.email) + 0.5 * share(.html) + 2 * share(.constant)
            // A person's name in an author's object is not the headline.
            score -= 0.8 * max(0, e.hint[.author])
            return score + hint - max(0, depth - 1) + 6 * coverage
        case .link:
            guard e.strings > 0 else { return nil }
            let linky = share(.url) + share(.relative) * (hint >= 0.5 ? 1 : 0.5)
            guard linky >= 0.5 else { return nil }
            let score = 3 * linky - 4 * share(.api) - 3 * share(.media) - 1.5 * share(.ownHost) - 0.5 * share(.relative)
                + 1.5 * distinct - 2.5 * repeated
            return score + hint - 0.5 * max(0, depth - 1) + coverage
        case .author:
            guard e.strings > 0, strings >= 0.5 * Float(e.present) else { return nil }
            // Under an author's object (`user.login`) the member that names the person; else a key
            // that is the author itself (`author`, `by`, `channelTitle`).
            let inherited = hint - e.own[.author]
            var score = inherited >= 1 ? inherited + 1.5 * e.own.personName - (e.own.personName > 0 ? 0 : 3)
                : e.own[.author] + min(0, inherited)
            guard score >= 1 else { return nil }
            score -= 4 * (share(.url) + share(.relative)) + 4 * share(.date) + 3 * share(.numeric) + 0.7 * share(.idlike)
                + 3 * share(.constant)
            if e.meanBytes > 80 { score -= 3 }
            if e.maxWords > 6 { score -= 2 }
            return score - 0.3 * max(0, depth - 2) + coverage
        case .time:
            // Shares of the values: strings' shapes were looked at on some of them (`share`), numbers all counted.
            let text = values == 0 ? 0 : strings / values
            let iso = share(.date) * text
            // Seconds, years alone and date parts are times only under a key that says so: else an id, a count.
            let said = hint >= 1
            let epoch = said && values > 0 ? (Float(e.epochs) + share(.numeric) * strings) / values : 0
            let year = said && values > 0 ? Float(e.years) / values : 0
            let parts = said && e.present > 0 ? Float(e.dateParts) / Float(e.present) : 0
            let timely = max(iso, epoch, year, parts)
            guard timely >= 0.5 else { return nil }
            // An instant over a day, a day over a year.
            let precision = iso > 0 ? 0.5 * Float(e.dateTimes) / Float(max(1, e.shaped)) + 0.2 : epoch > 0 ? 0.4 : year >= timely ? -0.5 : 0
            let score = 3 * timely + 1.5 * hint + 0.5 * distinct + precision
            return score - 0.5 * max(0, depth - 1) + coverage
        case .score, .comments:
            let unit = part == .score ? e.hint.scoreUnit : e.hint.commentUnit
            guard e.numbers > 0, unit >= 0, Float(e.integers) >= 0.8 * Float(e.numbers), hint >= 1 else { return nil }
            // The same count on every item says nothing about any of them.
            let score = hint - (e.zeros == e.numbers ? 1 : 0) - 2 * repeated
            return score - 0.3 * max(0, depth - 1) + coverage
        case .id:
            guard values > 0, hint >= 1, distinct >= 0.9 else { return nil }
            let score = hint + 2 * distinct - 3 * share(.spaced) - 2 * share(.url)
            return score - max(0, depth - 1) + coverage
        }
    }
}

extension FieldPlan.Part {
    /// The lowest score a path may have to be read as this part at all.
    var threshold: Float {
        switch self {
        case .title: -2
        case .link: 3
        case .author: 0.5
        case .score, .comments: 1
        case .time: 4.5
        case .id: 2
        }
    }
}
