extension Item {
    /// What identifies the item within its feed, for its seen state: its id, else its link, else a
    /// hash of its title. Stable across runs, pages and page eviction. An id or link longer than
    /// 256 bytes is kept as its hash (`id#…`, `link#…`), so a key stays small whatever a server sends.
    public var readingKey: String {
        if let id, !id.isEmpty { return id.utf8.count > 256 ? "id#" + StableHash.hex(of: id) : "id:" + id }
        if let url, !url.isEmpty { return url.utf8.count > 256 ? "link#" + StableHash.hex(of: url) : "link:" + url }
        return "title:" + StableHash.hex(of: title)
    }
}
