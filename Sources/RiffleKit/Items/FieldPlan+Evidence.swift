extension FieldPlan {
    /// The plan a page was read by, in words: built only when asked (`ItemExtractor.plan`), from what
    /// the reading counted.
    init(r: TapeReader, array: Int, lists: [ItemListFinder.Candidate], itemPath: JSONPath?, fields: FieldMapping, unwrap: Int?,
         ranked: [[FieldPlanner.Scored]], evidence: [PathEvidence], sampled: Int) {
        func list(_ candidate: ItemListFinder.Candidate) -> List {
            var reasons = ["\(candidate.count) element\(candidate.count == 1 ? "" : "s"), \(candidate.objects) of them objects"]
            if let headline = candidate.headline {
                reasons.append("best headline `\(headline)` (score \(Self.rounded(candidate.title)))")
            } else if candidate.title == -.infinity, candidate.score != 0 {
                reasons.append("no headline-like text")
            }
            if candidate.sideTable { reasons.append("a side table of name/value pairs") }
            return List(path: JSONPath(components: r.path(to: candidate.array)), count: candidate.count,
                        score: Self.rounded(candidate.score), reasons: reasons)
        }
        let chosen = lists.first { $0.array == array }
        var count = 0
        if r.kind(array) == .array { r.forEachElement(of: array) { _ in count += 1 } }
        self.list = chosen.map(list) ?? List(path: JSONPath(components: r.path(to: array)), count: count, score: 0,
                                              reasons: itemPath == nil ? ["\(count) elements"] : ["configured in the feed"])
        self.otherLists = lists.filter { $0.array != array }.map(list)
        self.listConfigured = itemPath != nil
        self.unwrap = unwrap.map { r.string($0) }
        self.sampled = sampled
        choices = Part.allCases.map { part in
            let candidates = ranked[part.rawValue].map { scored in
                Candidate(path: Self.path(of: scored.path, evidence, r), score: Self.rounded(scored.score),
                          reasons: Self.reasons(evidence[scored.path], part: part, sampled: sampled))
            }
            let configured = fields[part]
            return Choice(part: part, path: configured ?? candidates.first?.path, configured: configured != nil, candidates: candidates)
        }
    }

    /// The path of evidence `index` from the item, as its keys are written.
    static func path(of index: Int, _ evidence: [PathEvidence], _ r: TapeReader) -> JSONPath {
        var components: [String] = []
        var p = Int32(index)
        while p >= 0 {
            let e = evidence[Int(p)]
            switch e.key {
            case PathEvidence.each: components.append(JSONPath.each)
            case PathEvidence.first: components.append("0")
            default: components.append(r.string(Int(e.key)))
            }
            p = e.parent
        }
        return JSONPath(components: components.reversed())
    }

    /// A score to one decimal, as printed.
    private static func rounded(_ score: Float) -> Double { (Double(score) * 10).rounded() / 10 }
}
