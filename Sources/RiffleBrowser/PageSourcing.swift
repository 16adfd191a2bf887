import RiffleKit

/// Where the browser's pages come from: what the run loop needs of `PageLoader`.
public protocol PageSourcing: Sendable {
    /// Loads page `number` (1-based) as `policy` says, on the source's own executor.
    func load(_ number: Int, policy: CachePolicy) async throws(RiffleError) -> Page
    /// The page as stored, at once and from any thread, or nil: what the first frame is painted
    /// from before anything is fetched.
    func peekCachedPage(_ number: Int) -> Page?
}

extension PageLoader: PageSourcing {}
