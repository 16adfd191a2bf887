/// A request that may leave the moment another transfer's answer is complete, from the transport's
/// own thread, before that answer is handed back to its caller: how `PageLoader.readAhead` sends page
/// N+1 as soon as page N says it follows, rather than after page N has crossed the threads that check,
/// store and print it and the next request has crossed them back.
///
/// Set on a transfer's `TransferContext`. When the transfer ends with an answer and its caller still
/// waits for it, `CurlTransport` calls `next` with that answer; the request `next` returns is sent at
/// once, holding a place in the first transfer's `ConcurrencyLimit` (none is taken from a request
/// already waiting for one: then nothing is sent, nor when a `send` of an identical request is on its
/// way already), and is kept until a `send` of an identical request
/// (its `timeout` aside) takes its answer in place of a transfer of its own. `then` does the same for
/// that request's answer. A request sent this way and never asked for is dropped after a few newer
/// ones (its place freed when its answer arrived).
///
/// `next` runs on the transport's thread: it must be quick, and must never block or wait.
package struct FollowOn: Sendable {
    package let next: @Sendable (HTTPResponse) -> (request: HTTPRequest, then: FollowOn?)?

    package init(_ next: @escaping @Sendable (HTTPResponse) -> (request: HTTPRequest, then: FollowOn?)?) {
        self.next = next
    }
}

extension HTTPRequest {
    /// Whether `other` asks exactly what this request asks (method, URL, headers, body, credentials),
    /// whatever time either may take.
    func asksSame(as other: HTTPRequest) -> Bool {
        var mine = self, theirs = other
        mine.timeout = nil
        theirs.timeout = nil
        return mine == theirs
    }
}
