extension DemoFeedServer {
    /// How a page misbehaves, for testing a client's error handling.
    public enum Breakage: Sendable, Equatable {
        /// Answers with this HTTP status and a short plain-text body.
        case status(Int)
        /// Answers 200 with JSON cut off halfway (a fresh ETag, so a revalidation gets it too).
        case invalidJSON
        /// Answers 200 with a valid page document whose `items` is empty.
        case noItems
    }
}
