import Foundation

/// Finds the items of a response and turns each into an `Item`: the one reader of pages, for
/// configured feeds (item path, field mapping) as for zero-config ones.
///
/// It reads a `JSONDocument`'s tape, so only what the list shows is decoded; each item's `fields`
/// stay in the document until the detail view asks for them.
///
/// Without an item path, the items are the top-level array, else the root's `data` array (JSON:API:
/// `data` over the larger `included`), else the array of objects that looks most like a list of
/// posts (titles and times first, then the most objects) anywhere outside the items themselves:
/// `hits`, `items`, `data.children`, `topic_list.topics`, `edges`... An empty array there is an empty
/// page (the end of a feed); an array of numbers or strings alone is `FeedError.scalarItems`.
///
/// ```
/// let items = try ItemExtractor.items(in: data)                          // zero-config
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
    ///   - itemPath: a dotted path to the item array; nil finds it.
    ///   - fields: which fields to show; unmapped parts are found as without a mapping.
    /// - Throws: `FeedError.request(.invalidJSON)`, `.noItems`, `.scalarItems` or `.tooManyItems`.
    package static func items(in data: Data, itemPath: String? = nil, fields: FieldMapping = FieldMapping()) throws(FeedError) -> [Item] {
        try items(in: document(data, stored: false), itemPath: itemPath, fields: fields)
    }

    /// The items of a page read back from the disk cache, whose bytes were fully checked before they
    /// were stored: only the structure is checked again (`JSONDocument.Validation.structure`), so
    /// truncated or garbled bytes still throw, while a string damaged in place reads with U+FFFD.
    /// - Throws: `FeedError.request(.invalidJSON)`, `.noItems` or `.scalarItems`.
    package static func items(inStoredPage data: Data, itemPath: String? = nil,
                             fields: FieldMapping = FieldMapping()) throws(FeedError) -> [Item] {
        try items(in: document(data, stored: true), itemPath: itemPath, fields: fields)
    }

    /// The items of a document; each item's `fields` stay in the document until read.
    /// - Throws: `FeedError.noItems` or `.scalarItems`.
    package static func items(in document: JSONDocument, itemPath: String? = nil,
                             fields: FieldMapping = FieldMapping()) throws(FeedError) -> [Item] {
        try list(in: document, itemPath: itemPath, fields: fields).items
    }

    /// The items and the tape index of the array they came from (nil for none: a top-level `[]`
    /// counts as the array at index 0), for the end-of-feed signals around it (`Pagination`).
    static func list(in document: JSONDocument, itemPath: String?, fields: FieldMapping) throws(FeedError) -> (items: [Item], array: Int) {
        let path = itemPath.map(Self.components) ?? []
        let mapping = fields.isEmpty ? nil : PreparedMapping(fields)
        return try ItemRules.standard.withView { (rules: ItemRules.View) throws(FeedError) -> ([Item], Int) in
            try document.withReader { (r: TapeReader) throws(FeedError) -> ([Item], Int) in
                var reader = ItemReader(r, rules)
                defer { reader.free() }
                let array = try path.isEmpty ? reader.findArray() : reader.array(at: path)
                let count = r.tape[array].kind == .array ? r.elementCount(of: array) : 0
                // Counted before any item is built: memory stays a small multiple of the body.
                guard count <= maxItems else { throw .tooManyItems(count: count, limit: maxItems) }
                var items: [Item] = []
                items.reserveCapacity(count)
                r.forEachElement(of: array) { element in
                    guard r.kind(element) == .object else { return }
                    items.append(reader.item(at: element, mapping: mapping, document: document))
                }
                return (items, array)
            }
        }
    }

    static func document(_ data: Data, stored: Bool) throws(FeedError) -> JSONDocument {
        do { return try JSONDocument(data, validation: stored ? .structure : .full) } catch {
            throw .request(.invalidJSON(offset: error.offset, reason: error.reason))
        }
    }

    static func components(_ dotted: String) -> [String] {
        dotted.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }

    /// A `FieldMapping` split into keys once per page rather than once per item.
    struct PreparedMapping {
        var title: [String]?, subtitle: [[String]], link: [String]?, id: [String]?, time: [String]?

        init(_ fields: FieldMapping) {
            title = fields.title.map(components)
            subtitle = fields.subtitle.map(components)
            link = fields.link.map(components)
            id = fields.id.map(components)
            time = fields.time.map(components)
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

    /// Whether an http(s) URL is an API endpoint rather than a page (`https://api.github.com/…`,
    /// `…/api/v2/…`): the guessed link is one a person would open.
    static func isAPIEndpoint(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isAPIEndpoint)
    }

    /// `isAPIEndpoint` of a URL's UTF-8 bytes.
    static func isAPIEndpoint(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        func has(_ word: StaticString, at i: Int) -> Bool {
            i + word.utf8CodeUnitCount <= b.count && memcmp(b.baseAddress! + i, word.utf8Start, word.utf8CodeUnitCount) == 0
        }
        var colon = 0
        while colon < b.count, b[colon] != UInt8(ascii: ":") { colon += 1 }
        guard has("://", at: colon) else { return false }
        let host = colon + 3
        if has("api.", at: host) { return true }
        var slash = host
        while slash < b.count, b[slash] != UInt8(ascii: "/") { slash += 1 }
        return has("/api/", at: slash) || (slash + 4 == b.count && has("/api", at: slash))
    }
}
