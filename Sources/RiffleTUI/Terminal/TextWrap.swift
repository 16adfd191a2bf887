/// Breaks text into lines that fit a number of columns, by display width (CJK counts two).
package enum TextWrap {
    /// Wraps `text` (sanitised, one line per paragraph) into lines of at most `width` columns,
    /// breaking after spaces when it can and inside a word only when a word is longer than a line.
    /// - Parameters:
    ///   - width: the columns of the first line.
    ///   - continuationWidth: the columns of the following lines (a hanging indent leaves fewer); `width` when nil.
    package static func wrap(_ text: String, width: Int, continuationWidth: Int? = nil) -> [String] {
        wrap(text, width: width, continuationWidth: continuationWidth, maxLines: .max).lines
    }

    /// What `wrap` makes of a text, at most a number of lines.
    package struct Wrapped: Sendable, Equatable {
        /// The lines, `maxLines` at most.
        package var lines: [String]
        /// Whether text was left out after the last line.
        package var isCut: Bool
    }

    /// Wraps at most `maxLines` lines of `text`: the work is bounded by the lines made, not by the
    /// text's length (a text of megabytes costs what its first `maxLines` lines cost).
    /// - Parameter keepingURLs: a link (`http://`, `https://`) longer than a line is not broken: it
    ///   takes a line of its own, cut at the edge when drawn, so it can still be read whole from the
    ///   links it is listed in and copied.
    package static func wrap(_ text: String, width: Int, continuationWidth: Int? = nil, maxLines: Int,
                             keepingURLs: Bool = false) -> Wrapped {
        let first = max(1, width), rest = max(1, continuationWidth ?? width), maxLines = max(1, maxLines)
        // Every line takes one character at least (a zero-width run aside), so this prefix holds
        // what `maxLines` lines can show, and the rest of a huge text is never looked at.
        let budget = maxLines.multipliedReportingOverflow(by: max(first, rest) + 1)
        let prefix = budget.overflow ? Substring(text) : text.prefix(budget.partialValue)
        var wrapper = Wrapper(first: first, rest: rest, maxLines: maxLines, keepingURLs: keepingURLs)
        var start = prefix.startIndex
        while start <= prefix.endIndex, !wrapper.isFull {
            let end = prefix[start...].firstIndex(of: "\n") ?? prefix.endIndex
            wrapper.paragraph(Sanitizer.clean(String(prefix[start..<end])))
            guard end < prefix.endIndex else { break }
            start = prefix.index(after: end)
        }
        let cut = wrapper.isCut || prefix.endIndex < text.endIndex
        return Wrapped(lines: Array(wrapper.lines.prefix(maxLines)), isCut: cut)
    }

    private struct Wrapper {
        let first: Int, rest: Int, maxLines: Int, keepingURLs: Bool
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        /// Whether a paragraph had more than the lines allowed.
        var isCut = false

        var isFull: Bool { lines.count >= maxLines }
        var limit: Int { lines.isEmpty ? first : rest }

        mutating func breakLine() {
            while line.hasSuffix(" ") { line.removeLast() }
            if isFull { isCut = true } else { lines.append(line) }
            line = ""
            lineWidth = 0
        }

        mutating func paragraph(_ text: String) {
            var index = text.startIndex
            let paragraphStart = lines.count
            while index < text.endIndex {
                if isFull {
                    isCut = true
                    return
                }
                if text[index] == " " {
                    index = text.index(after: index)
                    if line.isEmpty && lines.count > paragraphStart { continue }  // no line starts with the space it broke at
                    if lineWidth + 1 > limit { breakLine(); continue }
                    line += " "
                    lineWidth += 1
                    continue
                }
                let end = text[index...].firstIndex(of: " ") ?? text.endIndex
                let word = text[index..<end]
                index = end
                // A word longer than a line is the only thing measured before it is placed in pieces.
                let wordWidth = TextWidth.width(of: word.prefix(limit + 1))
                if lineWidth > 0 && lineWidth + wordWidth > limit { breakLine() }
                if keepingURLs, wordWidth > limit, word.hasPrefix("https://") || word.hasPrefix("http://") {
                    if lineWidth > 0 { breakLine() }
                    line = String(word)
                    lineWidth = limit
                    breakLine()
                    continue
                }
                // A word longer than a line (or a run of CJK, which has no spaces) breaks anywhere.
                for character in word {
                    let w = TextWidth.width(of: character)
                    if lineWidth > 0 && lineWidth + w > limit {
                        breakLine()
                        if isFull {
                            isCut = true
                            return
                        }
                    }
                    line.append(character)
                    lineWidth += w
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            // A paragraph is one line at least; a link that took its own line leaves none pending.
            if !line.isEmpty || lines.count == paragraphStart {
                if isFull { isCut = true } else { lines.append(line) }
            }
            line = ""
            lineWidth = 0
        }
    }
}
