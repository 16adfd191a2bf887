import Foundation
import RiffleStorage

extension ReadingLog {
    // Chinese and Japanese put no space between words, and Korean none between a word and its
    // particles: SQLite's unicode61 tokenizer reads such a run as one word, so a search found a word
    // only at the start of a run (東京 in 東京の天気, not in 大阪と東京の天気). The log keeps a second
    // spelling of the words that hold such characters, each character a word of its own
    // (`title_chars`, `text_chars`), and a search asks for those characters in a row: a phrase,
    // found anywhere in the run.

    /// Whether `scalar` belongs to a script written without spaces between words: Han, kana, Hangul,
    /// Bopomofo (their blocks, compatibility and half-width forms, and the ideographic planes).
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x303B...0x303C,
             0x3040...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF,
             0xFF66...0xFFDC, 0x1B000...0x1B16F, 0x20000...0x3FFFF:
            true
        default:
            false
        }
    }

    /// Whether the index reads `scalar` as part of a word: letters, digits and the marks on them.
    /// Anything else (spaces, punctuation, symbols, emoji) separates words.
    ///
    /// Asked of every character of every item filed, so the common cases are answered from the code
    /// point: ASCII, and the blocks of Han, kana and Hangul that hold letters only. Unicode's property
    /// tables answer the rest (`isWordScalarByProperties`); asking them for every character made
    /// filing a cold 200-page dump of CJK titles take 2 s of CPU.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0...0x7F: false
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: true
        default: isWordScalarByProperties(scalar)
        }
    }

    /// `isWordScalar` as Unicode's properties say it, for any character.
    static func isWordScalarByProperties(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark
    }

    /// The words of `text`, split as the index's tokenizer splits it.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { word, _ in words.append(String(word)) }
        return words
    }

    /// Calls `body` with each word of `text` (as `words(of:)` splits it) and whether it holds an
    /// unspaced character, without building a string for any.
    private static func forEachWord(in text: String, _ body: (Substring.UnicodeScalarView, Bool) -> Void) {
        let scalars = text.unicodeScalars
        var start: String.UnicodeScalarView.Index?
        var unspaced = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if isWordScalar(scalar) {
                if start == nil { (start, unspaced) = (index, false) }
                if !unspaced, scalar.value >= 0x1100, isUnspaced(scalar) { unspaced = true }
            } else if let first = start {
                body(scalars[first..<index], unspaced)
                start = nil
            }
            scalars.formIndex(after: &index)
        }
        if let first = start { body(scalars[first..<scalars.endIndex], unspaced) }
    }

    /// `word` in pieces: each unspaced character (with the marks after it) alone, the letters and
    /// digits between them together: 新しいiPhone用 is 新, し, い, iPhone, 用.
    static func pieces(of word: String) -> [String] {
        var pieces: [String] = []
        var run = ""
        for scalar in word.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark, run.isEmpty, !pieces.isEmpty {
                pieces[pieces.count - 1].unicodeScalars.append(scalar)
            } else if isUnspaced(scalar) {
                if !run.isEmpty { pieces.append(run) }
                run = ""
                pieces.append(String(scalar))
            } else {
                run.unicodeScalars.append(scalar)
            }
        }
        if !run.isEmpty { pieces.append(run) }
        return pieces
    }

    /// What `title_chars` or `text_chars` keeps of `text`: the words holding an unspaced character,
    /// in pieces (`pieces(of:)`), separated by spaces; empty when it has none (most text, cheaply:
    /// every unspaced character takes three or four bytes, from 0xE1 on).
    static func unspacedWords(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0xE1 }), text.unicodeScalars.contains(where: { $0.value >= 0x1100 && isUnspaced($0) }) else {
            return ""
        }
        var pieces: [String] = []
        forEachWord(in: text) { word, unspaced in
            if unspaced { pieces += Self.pieces(of: String(word)) }
        }
        return pieces.joined(separator: " ")
    }

    /// The columns of `table`; empty when there is no such table.
    static func columns(of table: String, in db: SQLiteDatabase) throws(SQLiteError) -> Set<String> {
        Set(try db.execute("PRAGMA table_info(\(table))").compactMap { $0[1].text })
    }

    /// Whether the log was made before unspaced words were spelled apart (before 2026-12-04): it has
    /// an `items` table without `text_chars`.
    static func lacksUnspacedColumns(_ db: SQLiteDatabase) throws(SQLiteError) -> Bool {
        let columns = try columns(of: "items", in: db)
        return !columns.isEmpty && !columns.contains("text_chars")
    }

    /// Brings a log made before unspaced words were spelled apart up to date, in the caller's write
    /// transaction, keeping every item and its seen mark: adds the two columns to `items` and
    /// `staged`, fills them from what is there, and drops the full-text index and its triggers, which
    /// the schema then makes again with the new columns (`ReadingLog.schema`, then a `rebuild`).
    static func addUnspacedColumns(_ db: SQLiteDatabase) throws(SQLiteError) {
        for trigger in ["items_added", "items_removed", "items_changed"] { try db.execute("DROP TRIGGER IF EXISTS \(trigger)") }
        try db.execute("DROP TABLE IF EXISTS items_search")
        for table in ["items", "staged"] {
            let columns = try columns(of: table, in: db)
            guard !columns.isEmpty else { continue }
            for column in ["title_chars", "text_chars"] where !columns.contains(column) {
                try db.execute("ALTER TABLE \(table) ADD COLUMN \(column) TEXT NOT NULL DEFAULT ''")
            }
            // A page at a time, by id: a log holds up to 100,000 items of 2,000 characters.
            var after: Int64 = 0
            while true {
                let rows = try db.execute("SELECT id, title, author, body, feed_name FROM \(table) WHERE id > ? ORDER BY id LIMIT 500",
                                          [.int(after)])
                guard let last = rows.last?[0].int else { break }
                after = Int64(last)
                for row in rows {
                    let title = unspacedWords(row[1].text ?? "")
                    let text = unspacedWords(textForSearch(author: row[2].text ?? "", body: row[3].text ?? "", feedName: row[4].text ?? ""))
                    guard !title.isEmpty || !text.isEmpty else { continue }
                    try db.execute("UPDATE \(table) SET title_chars = ?, text_chars = ? WHERE id = ?", [.text(title), .text(text), row[0]])
                }
            }
        }
    }

    /// The text whose unspaced words `text_chars` keeps: an item's author, text and feed name.
    static func textForSearch(author: String, body: String, feedName: String) -> String {
        [author, body, feedName].joined(separator: "\n")
    }
}
