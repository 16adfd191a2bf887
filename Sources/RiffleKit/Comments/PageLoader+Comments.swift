import Foundation

extension PageLoader {
    /// Whether the feed says where its items' comments are.
    public nonisolated var hasComments: Bool { feed.comments != nil }

    /// `item`'s comments, fetched and cached like the feed's pages: through the loader's client
    /// (the feed's headers go to the feed's own origin only) and its response cache, fresh for
    /// five minutes unless the server says otherwise.
    /// - Returns: nil when the feed declares no comments.
    /// - Throws: `FeedError.request`; `.validation` naming the field when the item lacks what the URL needs.
    public nonisolated func comments(for item: Item, policy: CachePolicy = .returnCacheElseLoad) async throws(FeedError) -> CommentThread? {
        guard let rules = feed.comments else { return nil }
        guard let url = rules.url(for: item) else {
            let needed = CommentRules.placeholders(in: rules.url).map { "$." + $0 }.joined(separator: ", ")
            throw .request(.validation(path: needed.isEmpty ? "$" : needed, expected: "a value for the comments' URL", actual: "nothing usable"))
        }
        // Read by the feed's rules, not a `Decodable`: the internal initializer takes the reader.
        var endpoint = Endpoint<CommentThread>(method: .get, target: .url(url), query: [], body: nil, headers: [:], timeout: nil,
                                               cachePolicy: policy, maxAge: 300, shape: nil,
                                               decoding: .json { answer, _, _ throws(RiffleError) in try CommentThread(answer, rules: rules, item: item) })
        endpoint.envelope = .none
        do { return try await client.perform(endpoint, target: cache.target()).value } catch { throw FeedError(error) }
    }

    /// The page a browser shows for `item`'s discussion (`C`), when the feed names one.
    public nonisolated func discussionPage(for item: Item) -> URL? { feed.comments?.page(for: item) }
}
