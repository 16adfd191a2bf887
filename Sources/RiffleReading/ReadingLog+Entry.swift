import Foundation
import RiffleKit
import RiffleStorage

extension ReadingLog {
    /// What is filed for one item: its key and the text search looks at.
    struct Entry {
        var key: String
        var title: String
        var author: String
        /// The item's own text (a post's body, a story's text), as plain text, cut to the limit.
        var text: String
        var link: String?
        var id: String?
        var created: Double?

        /// Characters of a title kept.
        static let titleLimit = 500
        /// Characters of an author's or a feed's name kept.
        static let nameLimit = 200
        /// Bytes of a link or an id kept whole; a longer one is not kept (a cut link leads elsewhere).
        static let linkLimit = 4_096

        init(_ item: Item, textLimit: Int) {
            key = item.readingKey
            title = Self.cut(item.title, to: Self.titleLimit)
            author = Self.cut(item.author ?? "", to: Self.nameLimit)
            text = Self.text(of: item, limit: textLimit)
            link = item.url.flatMap { $0.utf8.count <= Self.linkLimit ? $0 : nil }
            id = item.id.flatMap { $0.utf8.count <= Self.linkLimit ? $0 : nil }
            created = item.createdAt?.timeIntervalSince1970
        }

        /// The values of `ReadingLog.itemColumns` for this entry, filed under `feed`.
        func values(feed: String, feedTitle: String, listed: Double) -> [SQLiteValue] {
            [.text(feed), .text(key), .text(feedTitle), .text(title), .text(author), .text(text),
             link.map(SQLiteValue.text) ?? .null, id.map(SQLiteValue.text) ?? .null, created.map(SQLiteValue.real) ?? .null, .real(listed),
             .text(ReadingLog.unspacedWords(title)),
             .text(ReadingLog.unspacedWords(ReadingLog.textForSearch(author: author, body: text, feedName: feedTitle)))]
        }

        /// `text`'s first `limit` characters.
        static func cut(_ text: String, to limit: Int) -> String {
            text.utf8.count <= limit ? text : String(text.prefix(limit))
        }

        /// Where items keep their text, in order: HN's `story_text`, Reddit's `selftext`, Lobsters'
        /// `description_plain`, then the common names. A value that is the title again is skipped.
        static let textKeys = ["story_text", "selftext", "description_plain", "description", "body", "summary", "text",
                               "content", "comment_text", "excerpt", "abstract"]

        static let textPaths = textKeys.map { JSONPath(components: [$0]) }

        static func text(of item: Item, limit: Int) -> String {
            for path in textPaths {
                guard var raw = item.string(at: path), !raw.isEmpty else { continue }
                // Only a bounded prefix is read: markup and spaces rarely take more than three
                // quarters of what a text shows.
                if raw.utf8.count > limit * 4 + 4_096 { raw = String(raw.prefix(limit * 4 + 4_096)) }
                let plain = HTMLText.looksLikeHTML(raw) ? HTMLText.plainText(raw) : HTMLText.decodingReferences(raw)
                let text = HTMLText.trimmingSpaces(plain)
                guard !text.isEmpty, text != item.title else { continue }
                return cut(text, to: limit)
            }
            return ""
        }
    }
}
