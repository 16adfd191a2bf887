extension Item {
    /// What identifies the item within its feed, for its seen state: its id, else its link, else a
    /// hash of its title. Stable across runs, pages and page eviction.
    public var readingKey: String {
        if let id, !id.isEmpty { return "id:" + id }
        if let url, !url.isEmpty { return "link:" + url }
        return "title:" + StableHash.hex(of: title)
    }
}
