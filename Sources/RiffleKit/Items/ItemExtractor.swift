import Foundation

/// Finds the items of a response and turns each into an `Item`: the one reader of pages, for
/// configured feeds (item path, field mapping) as for zero-config ones.
///
/// It reads a `JSONDocument`'s tape, so only what the list shows is decoded; each item's `fields`
/// stay in the document until the detail view asks for them.
///
/// Per page it infers a `FieldPlan` from what the values look like (`ItemListFinder` for the list,
/// `FieldPlanner` for each part, on a sample of at most `FieldPlanner.maxSample` items), then reads
/// every item by it; a configured item path or field wins part by part. An empty item array is an
/// empty page (the end of a feed); an array of numbers or strings alone is `FeedError.scalarItems`,
/// one record with a side table of name/value pairs `FeedError.notAList`.
///
/// ```
/// let items = try ItemExtractor.items(in: data, baseURL: pageURL)        // zero-config
/// let posts = try ItemExtractor.items(in: data, itemPath: "data.children",
///                                     fields: FieldMapping(title: "title", link: "url"))
/// ```
package enum ItemExtractor {
    /// The most items a page may hold; a page with more is `FeedError.tooManyItems`. Paged APIs send
    /// 10 to 1,000 (and a whole list such as jsonplaceholder's 5,000 photos fits); an item costs a few
    /// hundred bytes in memory, so this bounds a page's items to about 15 MB whatever the server sends.
    package static let maxItems = 50_000

    /// The items of a response body.
    /// - Parameters:
    ///   - itemPath: the path to the item array; nil finds it.
    ///   - fields: which fields to show; unmapped parts are found as without a mapping.
    ///   - baseURL: the page's URL, against which links that are paths (`/r/swift/…`) are resolved.
    /// - Throws: `FeedError.request(.invalidJSON)`, `.noItems`, `.scalarItems`, `.notAList` or `.tooManyItems`.
    package static func items(in data: Data, itemPath: JSONPath? = nil, fields: FieldMapping = FieldMapping(),
                              baseURL: URL? = nil) throws(FeedError) -> [Item] {
        try items(in: document(data, stored: false), itemPath: itemPath, fields: fields, baseURL: baseURL)
    }

    /// The items of a page read back from the disk cache, whose bytes were fully checked before they
    /// were stored: only the structure is checked again (`JSONDocument.Validation.structure`), so
    /// truncated or garbled bytes still throw, while a string damaged in place reads with U+FFFD.
    /// - Throws: `FeedError.request(.invalidJSON)`, `.noItems`, `.scalarItems` or `.notAList`.
    package static func items(inStoredPage data: Data, itemPath: JSONPath? = nil, fields: FieldMapping = FieldMapping(),
                              baseURL: URL? = nil) throws(FeedError) -> [Item] {
        try items(in: document(data, stored: true), itemPath: itemPath, fields: fields, baseURL: baseURL)
    }

    /// The items of a document; each item's `fields` stay in the document until read.
    /// - Throws: `FeedError.noItems`, `.scalarItems` or `.notAList`.
    package static func items(in document: JSONDocument, itemPath: JSONPath? = nil, fields: FieldMapping = FieldMapping(),
                              baseURL: URL? = nil) throws(FeedError) -> [Item] {
        try read(document, itemPath: itemPath, fields: fields, baseURL: baseURL, explain: false).items
    }

    /// The plan a page is read by, with its evidence and runners-up: what `riffle inspect` prints.
    /// - Throws: as `items(in:)`.
    package static func plan(in document: JSONDocument, itemPath: JSONPath? = nil, fields: FieldMapping = FieldMapping(),
                             baseURL: URL? = nil) throws(FeedError) -> FieldPlan {
        // `explain` always makes a plan.
        try read(document, itemPath: itemPath, fields: fields, baseURL: baseURL, explain: true).plan!
    }

    /// The items and the tape index of the array they came from (nil for none: a top-level `[]`
    /// counts as the array at index 0), for the end-of-feed signals around it (`Pagination`).
    static func list(in document: JSONDocument, itemPath: JSONPath?, fields: FieldMapping,
                     baseURL: URL? = nil) throws(FeedError) -> (items: [Item], array: Int) {
        let read = try read(document, itemPath: itemPath, fields: fields, baseURL: baseURL, explain: false)
        return (read.items, read.array)
    }

    /// Finds the list, infers the plan from a sample of its items, and reads every item by it; with
    /// `explain`, also the plan in words.
    private static func read(_ document: JSONDocument, itemPath: JSONPath?, fields: FieldMapping, baseURL: URL?,
                             explain: Bool) throws(FeedError) -> (items: [Item], array: Int, plan: FieldPlan?) {
        try document.withReader { (r: TapeReader) throws(FeedError) -> ([Item], Int, FieldPlan?) in
            let finder = ItemListFinder(r: r)
            let array: Int, lists: [ItemListFinder.Candidate]
            if let itemPath { (array, lists) = (try finder.array(at: itemPath), []) } else { (array, lists) = try finder.find(explain: explain) }
            var elements: [Int] = []
            if r.kind(array) == .array {
                var count = 0
                r.forEachElement(of: array) { _ in count &+= 1 }
                // Counted before any item is built: memory stays a small multiple of the body.
                guard count <= maxItems else { throw .tooManyItems(count: count, limit: maxItems) }
                elements.reserveCapacity(count)
                r.forEachElement(of: array) { e in if r.kind(e) == .object { elements.append(e) } }
            }
            let sample = FieldPlanner.sample(elements.count).map { elements[$0] }
            let unwrap = ItemSample.unwrapKey(sample, r)
            let collector = EvidenceCollector(r, baseURL: baseURL)
            KeyWords.withReader { words in
                for element in sample { collector.add(item: ItemSample.open(element, unwrap, r), words: words) }
            }
            let evidence = collector.paths
            let ranked = FieldPlanner.rank(evidence, items: collector.items)
            let plan = compile(fields: fields, ranked: ranked, evidence: evidence, r)
            let items = plan.withView { view in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, view.firstKeys.count)) { slots in
                    let reader = ItemReader(r: r, view: view, slots: slots.baseAddress!)
                    return [Item](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
                        for element in elements {
                            (buffer.baseAddress! + initialized).initialize(to: reader.item(ItemSample.open(element, unwrap, r),
                                                                                           document: document, baseURL: baseURL))
                            initialized += 1
                        }
                    }
                }
            }
            guard explain else { return (items, array, nil) }
            let explained = FieldPlan(r: r, array: array, lists: lists, itemPath: itemPath, fields: fields, unwrap: unwrap,
                                      ranked: ranked, evidence: evidence, sampled: collector.items)
            return (items, array, explained)
        }
    }

    /// The paths each part is read from: a configured one alone (a configured title falls back on
    /// the inferred ones), else the inferred ones best first.
    private static func compile(fields: FieldMapping, ranked: [[FieldPlanner.Scored]], evidence: [PathEvidence],
                                _ r: TapeReader) -> CompiledPlan {
        var plan = CompiledPlan()
        for part in FieldPlan.Part.allCases {
            if let path = fields[part] {
                plan.parts[part.rawValue].append(plan.add(path, part: part))
                plan.configured[part.rawValue] = true
                guard part == .title else { continue }
            }
            for scored in ranked[part.rawValue] {
                plan.parts[part.rawValue].append(plan.add(evidence: scored.path, evidence, part: part, r))
            }
        }
        plan.subtitle = fields.subtitle.map { plan.add($0, part: nil) }
        return plan
    }

    /// The document of a page's bytes: fully checked, or (`stored`) only its structure, for bytes that
    /// were fully checked before they were stored. `url`: where bytes fresh from the network came from
    /// (JSON that stops in the middle is then an answer cut short, `RiffleError.cutShort`).
    package static func document(_ data: Data, stored: Bool, from url: URL? = nil) throws(FeedError) -> JSONDocument {
        do { return try JSONDocument(data, validation: stored ? .structure : .full) } catch {
            throw .request(.invalidJSON(error, in: data, from: url))
        }
    }
}

extension FieldMapping {
    /// The configured path of `part`, if any.
    package subscript(part: FieldPlan.Part) -> JSONPath? {
        get {
            switch part {
            case .title: title
            case .link: link
            case .author: author
            case .time: time
            case .score: score
            case .comments: comments
            case .id: id
            }
        }
        set {
            switch part {
            case .title: title = newValue
            case .link: link = newValue
            case .author: author = newValue
            case .time: time = newValue
            case .score: score = newValue
            case .comments: comments = newValue
            case .id: id = newValue
            }
        }
    }
}

extension ItemExtractor {
    /// `text.hasPrefix("http")` without Character segmentation when the answer is plain bytes.
    static func isHTTP(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.starts(with: "http".utf8) else { return false }
        // After an ASCII byte "http" ends on a Character boundary; a combining mark would not.
        guard let next = utf8.dropFirst(4).first, next >= 0x80 else { return true }
        return text.hasPrefix("http")
    }
}
