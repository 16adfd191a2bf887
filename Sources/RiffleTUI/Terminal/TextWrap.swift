/// Breaks text into lines that fit a number of columns, by display width (CJK counts two).
package enum TextWrap {
    /// Wraps `text` (sanitised, one line per paragraph) into lines of at most `width` columns,
    /// breaking after spaces when it can and inside a word only when a word is longer than a line.
    /// - Parameters:
    ///   - width: the columns of the first line.
    ///   - continuationWidth: the columns of the following lines (a hanging indent leaves fewer); `width` when nil.
    package static func wrap(_ text: String, width: Int, continuationWidth: Int? = nil) -> [String] {
        let rest = max(1, continuationWidth ?? width)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += wrapParagraph(Sanitizer.clean(String(paragraph)), first: max(1, lines.isEmpty ? width : rest), rest: rest)
        }
        return lines
    }

    private static func wrapParagraph(_ text: String, first: Int, rest: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var limit = first
        func breakLine() {
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
            line = ""
            lineWidth = 0
            limit = rest
        }
        for word in words(of: text) {
            if word == " " {
                if line.isEmpty && !lines.isEmpty { continue }  // no line starts with the space it broke at
                if lineWidth + 1 > limit { breakLine(); continue }
                line += " "
                lineWidth += 1
                continue
            }
            if lineWidth > 0 && lineWidth + TextWidth.width(of: word) > limit { breakLine() }
            // A word longer than a line (or a run of CJK, which has no spaces) breaks anywhere.
            for character in word {
                let w = TextWidth.width(of: character)
                if lineWidth > 0 && lineWidth + w > limit { breakLine() }
                line.append(character)
                lineWidth += w
            }
        }
        while line.hasSuffix(" ") { line.removeLast() }
        lines.append(line)
        return lines
    }

    /// Runs of non-spaces, and each space on its own.
    private static func words(of text: String) -> [Substring] {
        var words: [Substring] = []
        var start = text.startIndex
        for i in text.indices where text[i] == " " {
            if start < i { words.append(text[start..<i]) }
            words.append(text[i...i])
            start = text.index(after: i)
        }
        if start < text.endIndex { words.append(text[start...]) }
        return words
    }
}
