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
        do {
            let answer = try await client.perform(endpoint, target: cache.target())
            var thread = answer.value
            thread.source = answer.source
            return thread
        } catch { throw FeedError(error) }
    }

    /// The page a browser shows for `item`'s discussion (`C`), when the feed names one.
    public nonisolated func discussionPage(for item: Item) -> URL? { feed.comments?.page(for: item) }
}

extension PageLoader {
    /// The replies the "more" stub at `stub` of `thread` (a discussion of `item`) stands for,
    /// fetched as the feed's `comments.expand` says, through the loader's client and response cache
    /// like every request: a second call within five minutes (or what the server says) is answered
    /// from the cache, and two at once send one request.
    ///
    /// A stub that lists more replies than one request may ask for (`batch`) is fetched in part; the
    /// rest comes back as a stub at the end of the replies.
    ///
    /// ```swift
    /// func firstStub(_ loader: PageLoader) async throws {   // a feed whose comments say how to expand stubs (Reddit)
    ///     let item = try await loader.load(1).items[0]
    ///     guard let thread = try await loader.comments(for: item), let stub = thread.comments.firstIndex(where: { $0.more != nil }) else { return }
    ///     let replies = try await loader.replies(toStub: stub, in: thread, for: item)
    ///     print(thread.replacing(stub: stub, with: replies).comments.count)
    /// }
    /// ```
    /// - Throws: `FeedError.request`: `.validation` when the feed names no way to expand stubs, the
    ///   comment is not a stub, a value the URL needs is missing, or the answer is not as the rules say.
    public nonisolated func replies(toStub stub: Int, in thread: CommentThread, for item: Item,
                                    policy: CachePolicy = .returnCacheElseLoad) async throws(FeedError) -> CommentThread.Replies {
        guard let rules = feed.comments else { throw .request(.validation(path: "comments", expected: "comment rules", actual: "nothing")) }
        let request: CommentRules.ExpansionRequest
        do { request = try rules.expansionRequest(for: stub, in: thread, of: item) } catch { throw .request(error) }
        let url: URL
        let decoding: @Sendable (JSONValue) throws(RiffleError) -> CommentThread.Replies
        switch request {
        case .replies(let target, let rest):
            url = target
            decoding = { answer throws(RiffleError) in try CommentThread.replies(in: answer, rules: rules, item: item, rest: rest) }
        case .thread(let target, let parent):
            url = target
            decoding = { answer throws(RiffleError) in try CommentThread.replies(of: parent, in: CommentThread(answer, rules: rules, item: item)) }
        }
        var endpoint = Endpoint<CommentThread.Replies>(method: .get, target: .url(url), query: [], body: nil, headers: [:], timeout: nil,
                                                       cachePolicy: policy, maxAge: 300, shape: nil,
                                                       decoding: .json { answer, _, _ throws(RiffleError) in try decoding(answer) })
        endpoint.envelope = .none
        do { return try await client.perform(endpoint, target: cache.target()).value } catch { throw FeedError(error) }
    }

    /// `thread` with the "more" stub at `stub` replaced by the replies it stands for
    /// (`replies(toStub:in:for:policy:)`), at the stub's depth.
    ///
    /// ```swift
    /// func more(_ loader: PageLoader, _ thread: CommentThread, _ item: Item) async throws -> CommentThread {
    ///     guard let stub = thread.comments.firstIndex(where: { $0.more != nil }) else { return thread }
    ///     return try await loader.expand(stub, in: thread, for: item)
    /// }
    /// ```
    /// - Throws: as `replies(toStub:in:for:policy:)`.
    public nonisolated func expand(_ stub: Int, in thread: CommentThread, for item: Item,
                                   policy: CachePolicy = .returnCacheElseLoad) async throws(FeedError) -> CommentThread {
        thread.replacing(stub: stub, with: try await replies(toStub: stub, in: thread, for: item, policy: policy))
    }
}
