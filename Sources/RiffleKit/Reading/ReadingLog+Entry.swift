import Foundation

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

        init(_ item: Item, textLimit: Int) {
            key = item.readingKey
            title = item.title
            author = item.author ?? ""
            text = Self.text(of: item, limit: textLimit)
            link = item.url
            id = item.id
            created = item.createdAt?.timeIntervalSince1970
        }

        /// Where items keep their text, in order: HN's `story_text`, Reddit's `selftext`, Lobsters'
        /// `description_plain`, then the common names. A value that is the title again is skipped.
        static let textKeys = ["story_text", "selftext", "description_plain", "description", "body", "summary", "text",
                               "content", "comment_text", "excerpt", "abstract"]

        static func text(of item: Item, limit: Int) -> String {
            guard case .object(let object) = item.fields else { return "" }
            for key in textKeys {
                guard let raw = object[key]?.stringValue, !raw.isEmpty else { continue }
                let plain = HTMLText.looksLikeHTML(raw) ? HTMLText.plainText(raw) : HTMLText.decodingReferences(raw)
                let text = plain.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty, text != item.title else { continue }
                return text.count > limit ? String(text.prefix(limit)) : text
            }
            return ""
        }
    }
}
