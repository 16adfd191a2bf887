import Foundation

/// Finds the array a page's items are in, by what its elements look like: objects with headline-like
/// text and varied values, not a side table of name/value pairs. A top-level array is the list; in an
/// object, every array of objects outside the items themselves is a candidate (`hits`, `data.children`,
/// `topic_list.topics`, `edges`...), scored by the best headline its elements hold, its size and what
/// its key is called. An answer about one thing whose only list is a side table is not a feed.
struct ItemListFinder {
    let r: TapeReader

    /// An array considered.
    struct Candidate {
        var array: Int
        var count: Int
        /// Elements that are objects.
        var objects: Int
        var sideTable = false
        /// A one-element array whose element holds a longer list (Bing's `suggestionGroups`): a wrapper.
        var wrapsList = false
        /// The best headline score among its elements' paths, and that path.
        var title: Float = -.infinity
        var headline: JSONPath?
        var score: Float = 0
    }

    /// The array the items are in, and (when `explain`) every candidate, best first.
    /// - Throws: `FeedError.scalarItems` for an array of scalars alone, `.notAList` for one record
    ///   with a side table, `.noItems` for no array.
    func find(explain: Bool) throws(FeedError) -> (array: Int, candidates: [Candidate]) {
        switch r.kind(0) {
        case .array:
            let (count, objects) = census(0)
            if count == 0 || objects > 0 { return (0, [Candidate(array: 0, count: count, objects: objects)]) }
            throw scalarItems(0)
        case .object:
            break
        default:
            throw .noItems(keys: [])
        }
        // Empty arrays are candidates too: JSON:API's empty `data` beside a full `included` is an empty page.
        var candidates: [Candidate] = []
        var largestScalars: (array: Int, count: Int)?
        func visit(_ i: Int, depth: Int) {
            guard depth < 8 else { return }
            switch r.kind(i) {
            case .array:
                let (count, objects) = census(i)
                if count == 0 || (objects > 0 && objects * 2 >= count) {
                    candidates.append(Candidate(array: i, count: count, objects: objects))
                } else if count > largestScalars?.count ?? 0 {
                    largestScalars = (i, count)
                }
                // Arrays nested in items (tags, comments) are never the list, unless the array has one
                // small element: a group around the list (`suggestionGroups[0].searchSuggestions`).
                if count == 1, objects == 1, r.memberCount(of: i &+ 1) <= 4 {
                    let outer = candidates.count - 1
                    let before = candidates.count
                    r.forEachMember(of: i &+ 1) { _, v in visit(v, depth: depth + 1) }
                    if candidates[before...].contains(where: { $0.count > 1 }) { candidates[outer].wrapsList = true }
                }
            case .object:
                r.forEachMember(of: i) { _, v in visit(v, depth: depth + 1) }
            default: break
            }
        }
        visit(0, depth: 0)
        guard !candidates.isEmpty else {
            if let largestScalars { throw scalarItems(largestScalars.array) }
            var keys: [String] = []
            r.forEachMember(of: 0) { k, _ in keys.append(r.string(k)) }
            throw .noItems(keys: keys)
        }
        for index in candidates.indices where candidates[index].objects > 0 {
            candidates[index].sideTable = isSideTable(candidates[index].array)
        }
        try refuseOneRecord(candidates)
        if candidates.count == 1 && !explain { return (candidates[0].array, candidates) }
        for index in candidates.indices { score(&candidates[index]) }
        // The best score; on a tie the first in the document.
        let best = candidates.indices.max { candidates[$0].score < candidates[$1].score || (candidates[$0].score == candidates[$1].score && $0 > $1) }!
        let chosen = candidates[best]
        candidates.remove(at: best)
        candidates.sort { $0.score > $1.score }
        return (chosen.array, [chosen] + candidates)
    }

    /// The array at a configured path.
    /// - Throws: `FeedError.noItems` when there is no array there, `.scalarItems` when it holds only scalars.
    func array(at path: JSONPath) throws(FeedError) -> Int {
        guard let array = r.value(0, at: path), r.kind(array) == .array else {
            var keys: [String] = []
            if r.kind(0) == .object { r.forEachMember(of: 0) { k, _ in keys.append(r.string(k)) } }
            throw .noItems(keys: keys)
        }
        let (count, objects) = census(array)
        if count == 0 || objects > 0 { return array }
        throw scalarItems(array)
    }

    /// The candidate's score: the best headline among its first elements' values, a little for its
    /// size, what its key's name says, and much less for a side table. An empty array has no
    /// headline: only its name speaks for it.
    private func score(_ candidate: inout Candidate) {
        guard candidate.objects > 0 else {
            candidate.score = -5 + Self.listNameWeight(r, candidate.array)
            return
        }
        let elements = ItemSample.elements(of: candidate.array, r, limit: 6)
        let collector = EvidenceCollector(r)
        let unwrap = ItemSample.unwrapKey(elements, r)
        KeyWords.withReader { words in
            for element in elements { collector.add(item: ItemSample.open(element, unwrap, r), words: words) }
        }
        let n = Float(max(1, collector.items))
        let evidence = collector.paths
        var best: Int?
        for (index, e) in evidence.enumerated() {
            if let title = FieldPlanner.score(e, for: .title, items: n), title > candidate.title {
                candidate.title = title
                best = index
            }
        }
        candidate.headline = best.map { FieldPlan.path(of: $0, evidence, r) }
        var score = candidate.title.isFinite ? candidate.title : -5
        score += 0.3 * Float(Int.bitWidth - candidate.count.leadingZeroBitCount)
        score += Self.listNameWeight(r, candidate.array)
        if candidate.sideTable { score -= 6 }
        if candidate.wrapsList { score -= 3 }
        candidate.score = score
    }

    /// Names of item lists, and of arrays that are beside the items rather than them.
    private static let listNames: Set<String> = [
        "data", "items", "results", "result", "hits", "entries", "posts", "stories", "articles", "records", "docs", "documents",
        "children", "edges", "nodes", "list", "topics", "statuses", "messages", "issues", "value", "rows", "feed", "elements",
        "objects", "releases", "videos", "repositories", "packages", "collection", "works", "books", "products", "photos", "tracks",
        "albums", "comments", "questions", "answers", "events", "files", "jobs", "news", "notifications", "orders", "tasks",
    ]
    private static let sideNames: Set<String> = [
        "included", "errors", "warnings", "facets", "aggregations", "filters", "categories", "tags", "labels", "meta", "links",
        "images", "attachments", "suggestions", "related", "sorts", "users", "authors",
    ]

    private static func listNameWeight(_ r: TapeReader, _ array: Int) -> Float {
        guard let name = r.path(to: array).last?.lowercased() else { return 0 }
        if listNames.contains(name) { return 1.5 }
        if sideNames.contains(name) { return -1 }
        return 0
    }

    /// Throws `FeedError.notAList` when the answer is one record whose lists are parts of it: the
    /// object holding each list says eight things or more of its own (a film's title, year, plot...)
    /// and the list's elements are small beside it (OMDb's `Ratings`, a product's `images`), or the
    /// list is a table of name/value pairs beside three things or more.
    private func refuseOneRecord(_ candidates: [Candidate]) throws(FeedError) {
        let lists = candidates.filter { $0.objects > 0 }
        guard !lists.isEmpty else { return }
        var largest: (fields: Int, list: Candidate)?
        for list in lists {
            let fields = scalars(holding: list.array)
            if list.sideTable, fields >= 3 {
                if fields > largest?.fields ?? -1 { largest = (fields, list) }
                continue
            }
            let elements = ItemSample.elements(of: list.array, r, limit: 6)
            let members = elements.reduce(0) { $0 + r.memberCount(of: $1) } / max(1, elements.count)
            guard fields >= 8, 2 * members <= fields else { return }
            if fields > largest?.fields ?? -1 { largest = (fields, list) }
        }
        guard let largest else { return }
        let biggest = lists.max { $0.count < $1.count } ?? largest.list
        throw .notAList(fields: largest.fields, path: r.path(to: biggest.array).joined(separator: "."), rows: biggest.count)
    }

    /// Whether the array's elements are name/value pairs (`{"name": "Colour", "value": "red"}`,
    /// `{"trait_type": …, "value": …}`, `{"Source": …, "Value": …}`): objects of two or three members,
    /// one naming and one holding a value, on every element looked at.
    private func isSideTable(_ array: Int) -> Bool {
        let elements = ItemSample.elements(of: array, r, limit: 6)
        guard !elements.isEmpty else { return false }
        for element in elements {
            let members = r.memberCount(of: element)
            guard (2...3).contains(members) else { return false }
            var naming = false, valued = false
            r.forEachMember(of: element) { k, _ in
                let key = r.string(k).lowercased()
                if Self.namingKeys.contains(key) { naming = true }
                if Self.valueKeys.contains(key) { valued = true }
            }
            guard naming && valued else { return false }
        }
        return true
    }

    private static let namingKeys: Set<String> = ["name", "key", "label", "attribute", "trait_type", "property", "field", "type",
                                                  "code", "parameter", "param", "spec", "feature", "source"]
    private static let valueKeys: Set<String> = ["value", "values", "val", "amount", "displayvalue", "display_value", "setting"]

    /// How many scalars the objects holding the array at `array` have, the most of any on the way
    /// from the root: what the record around the list says of its own.
    private func scalars(holding array: Int) -> Int {
        func count(_ object: Int) -> Int {
            var scalars = 0
            r.forEachMember(of: object) { _, v in
                switch r.kind(v) {
                case .string, .number, .true, .false: scalars += 1
                default: break
                }
            }
            return scalars
        }
        var most = r.kind(0) == .object ? count(0) : 0
        var current = 0
        while current != array {
            var next: Int?
            switch r.kind(current) {
            case .object: r.forEachMember(of: current) { _, v in if next == nil, v <= array, array < r.after(v) { next = v } }
            case .array: r.forEachElement(of: current) { e in if next == nil, e <= array, array < r.after(e) { next = e } }
            default: break
            }
            guard let found = next else { break }
            if found != array, r.kind(found) == .object { most = max(most, count(found)) }
            current = found
        }
        return most
    }

    /// How many elements the array at `i` has, and how many of them are objects.
    private func census(_ i: Int) -> (count: Int, objects: Int) {
        var count = 0, objects = 0
        r.forEachElement(of: i) { e in
            count &+= 1
            if r.kind(e) == .object { objects &+= 1 }
        }
        return (count, objects)
    }

    /// `FeedError.scalarItems` describing the array at `i`.
    private func scalarItems(_ i: Int) -> FeedError {
        var count = 0
        var kinds = Set<TapeEntry.Kind>()
        r.forEachElement(of: i) { e in
            count &+= 1
            let kind = r.kind(e)
            kinds.insert(kind == .false ? .true : kind)
        }
        let kind: String
        switch kinds.count == 1 ? kinds.first : nil {
        case .number?: kind = count == 1 ? "number" : "numbers"
        case .string?: kind = count == 1 ? "string" : "strings"
        case .true?: kind = count == 1 ? "boolean" : "booleans"
        case .null?: kind = count == 1 ? "null" : "nulls"
        case .array?: kind = count == 1 ? "array" : "arrays"
        default: kind = count == 1 ? "value" : "values"
        }
        return .scalarItems(count: count, kind: kind, path: r.path(to: i).joined(separator: "."))
    }
}

/// Which elements of a list a plan looks at, and the wrapper each is opened to.
enum ItemSample {
    /// The object elements of the array at `array`: all of them, or `limit` spread evenly over it.
    static func elements(of array: Int, _ r: TapeReader, limit: Int) -> [Int] {
        var objects: [Int] = []
        r.forEachElement(of: array) { e in if r.kind(e) == .object { objects.append(e) } }
        guard objects.count > limit else { return objects }
        return FieldPlanner.sample(objects.count, limit: limit).map { objects[$0] }
    }

    /// The key every element is a wrapper around, when they are: three members or fewer, one of
    /// them an object larger than the element (Reddit's `{kind, data}`, GraphQL's `{cursor, node}`,
    /// Bluesky's `{post, reply}`). Its tape index in the first element.
    static func unwrapKey(_ elements: [Int], _ r: TapeReader) -> Int? {
        var key: Int?
        for element in elements {
            let members = r.memberCount(of: element)
            guard members <= 3 else { return nil }
            var largest: (key: Int, size: Int)?
            var second = 0
            r.forEachMember(of: element) { k, v in
                guard r.kind(v) == .object else { return }
                let size = r.memberCount(of: v)
                if size > largest?.size ?? 0 {
                    second = largest?.size ?? 0
                    largest = (k, size)
                } else if size > second {
                    second = size
                }
            }
            // Two records side by side (Contentful's `{fields, sys}`) are an item, not a wrapper: the
            // wrapped one is at least twice any other (Bluesky's `{post, reply, reason}`).
            guard let largest, largest.size >= 3, largest.size > members, largest.size >= 2 * second else { return nil }
            if let key {
                guard r.keyEquals(key, largest.key) else { return nil }
            } else {
                key = largest.key
            }
        }
        return key
    }

    /// The element, or the object its wrapper key holds.
    static func open(_ element: Int, _ key: Int?, _ r: TapeReader) -> Int {
        guard let key else { return element }
        var found: Int?
        r.forEachMember(of: element) { k, v in if r.keyEquals(k, key) { found = v } }
        guard let found, r.kind(found) == .object else { return element }
        return found
    }
}

extension TapeReader {
    /// Whether the keys at tape indices `a` and `b` are the same text.
    func keyEquals(_ a: Int, _ b: Int) -> Bool {
        let x = tape[a], y = tape[b]
        if x.flags == 0, y.flags == 0 {
            let length = Int(x.end) &- Int(x.start)
            return length == Int(y.end) &- Int(y.start) && memcmp(base + Int(x.start), base + Int(y.start), length) == 0
        }
        return string(a) == string(b)
    }
}
