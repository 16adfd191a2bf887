extension FieldPlan {
    /// The evidence for reading `e` as `part`, in words a person checks against the page: what the
    /// values look like, on how many of the `sampled` items, and what the key's name says.
    static func reasons(_ e: PathEvidence, part: Part, sampled n: Int) -> [String] {
        var reasons: [String] = []
        let values = Int(e.strings) + Int(e.numbers)
        func most(_ shape: ValueShape) -> Bool { e.share(shape) >= 0.5 }
        func count(_ shape: ValueShape) -> String { "\(e.shapes[shape])/\(e.shaped)" }
        let words = e.minWords == e.maxWords ? "\(e.minWords) word\(e.minWords == 1 ? "" : "s")" : "\(e.minWords)–\(e.maxWords) words"

        switch part {
        case .title, .author:
            if e.strings == 0 {
                reasons.append("no text")
            } else if most(.url) {
                reasons.append("a URL on \(count(.url)) items")
            } else if most(.relative) {
                reasons.append("a path on \(count(.relative)) items")
            } else if most(.date) {
                reasons.append("a date on \(count(.date)) items")
            } else if most(.numeric) {
                reasons.append("a number on \(count(.numeric)) items")
            } else if most(.idlike) {
                reasons.append("an id or code on \(count(.idlike)) items")
            } else if most(.slug) {
                reasons.append("a slug on \(count(.slug)) items")
            } else if most(.spaced) {
                reasons.append("text of \(words)")
            } else if most(.nonASCII) {
                reasons.append("text of \(Int(e.meanBytes.rounded())) bytes on average, no spaces")
            } else {
                reasons.append("one word each")
            }
            if e.meanBytes > 400 { reasons.append("long (\(Int(e.meanBytes.rounded())) bytes on average)") }
            if most(.html) { reasons.append("HTML") }
        case .link:
            let pages = e.shapes[.url] + e.shapes[.relative] - e.shapes[.api] - e.shapes[.media]
            if pages > 0 { reasons.append("a page URL on \(pages)/\(e.shaped) items") }
            if e.shapes[.relative] > 0 { reasons.append("a path on \(count(.relative)), resolved against the feed's URL") }
            if e.shapes[.api] > 0 { reasons.append("the API's own URL on \(count(.api))") }
            if e.shapes[.media] > 0 { reasons.append("an image or media file on \(count(.media))") }
        case .time:
            if e.shapes[.date] > 0 { reasons.append("an ISO 8601 date on \(count(.date)) items") }
            if e.epochs > 0 { reasons.append("Unix seconds on \(e.epochs)/\(e.numbers) items") }
            if e.shapes[.numeric] > 0 { reasons.append("Unix seconds as text on \(count(.numeric)) items") }
        case .score, .comments:
            reasons.append(e.integers == e.numbers ? "a whole number" : "numbers, \(Int(e.numbers) - Int(e.integers)) not whole")
            let unit = Int(part == .score ? e.hint.scoreUnit : e.hint.commentUnit)
            if KeyWords.units.indices.contains(unit) { reasons.append("counts \(KeyWords.units[unit].many)") }
            if e.zeros > 0 { reasons.append("zero on \(e.zeros)/\(e.numbers) items") }
        case .id:
            if e.strings > 0, most(.idlike) { reasons.append("a code") } else if e.numbers > 0 { reasons.append("a number") }
        }
        if values > 1 {
            if e.distinct == values {
                reasons.append("different on \(values)/\(values) items")
            } else if Double(e.distinct) < Double(values) / 2 {
                reasons.append(e.distinct == 1 ? "the same value on \(values)/\(values) items" : "only \(e.distinct) different values on \(values) items")
            } else {
                reasons.append("\(e.distinct) different values on \(values) items")
            }
        }
        if Int(e.present) < n { reasons.append("missing on \(n - Int(e.present))/\(n) items") }
        let hint = e.hint[part]
        if hint >= 1.5 {
            let names: [Part: String] = [.title: "a title", .link: "a link", .author: "an author", .time: "a time", .score: "a score",
                                         .comments: "comments", .id: "an id"]
            reasons.append("its key names \(names[part] ?? part.description)")
        } else if hint <= -1 {
            reasons.append("its key names something else")
        }
        if e.depth > 2 { reasons.append("\(e.depth - 1) levels down") }
        return reasons
    }
}
