extension ItemExtractor {
    /// The items of a parsed page as a feed describes them.
    ///
    /// - Parameters:
    ///   - itemPath: a dotted path to the item array; nil finds it automatically. An empty array at the path
    ///     is an empty page (the end of the feed); found automatically, only a top-level `[]` is, because an
    ///     object whose only arrays are empty is as likely an error answer (see DECISIONS.md).
    ///   - fields: which fields to show; unmapped parts are guessed as `item(from:)` does.
    /// - Throws: `RiffleError.noItems` with the top-level keys when there is no item array.
    public static func items(in document: JSONValue, itemPath: String?, fields: FieldMapping = FieldMapping()) throws(RiffleError) -> [Item] {
        let array: [JSONValue]
        if let itemPath, !itemPath.isEmpty {
            guard let found = document.value(atPath: itemPath)?.arrayValue else {
                throw .noItems(keys: document.objectValue?.keys ?? [])
            }
            array = itemArray(in: .array(found)) ?? []
        } else if let found = itemArray(in: document) {
            array = found
        } else {
            throw .noItems(keys: document.objectValue?.keys ?? [])
        }
        return fields.isEmpty ? array.map(item(from:)) : array.map { item(from: $0, fields: fields) }
    }

    /// One item with `fields` applied over the automatic guesses.
    public static func item(from value: JSONValue, fields: FieldMapping) -> Item {
        var item = item(from: value)
        if let path = fields.title, let title = value.value(atPath: path)?.scalarText, !title.isEmpty { item.title = title }
        if let path = fields.id { item.id = value.value(atPath: path)?.scalarText }
        if let path = fields.link { item.url = value.value(atPath: path)?.scalarText.flatMap { $0.hasPrefix("http") ? $0 : nil } }
        if let path = fields.time { item.createdAt = value.value(atPath: path).flatMap(Timestamp.date(from:)) }
        if !fields.subtitle.isEmpty {
            item.details = fields.subtitle.compactMap { value.value(atPath: $0)?.scalarText }.filter { !$0.isEmpty }
        }
        return item
    }
}
