import Foundation
import RiffleKit

/// `--max-age SECONDS`, the user's limit on a stored page's age, the same in the browser and in
/// `riffle dump`: a stored page older than that is asked for again (revalidated with its ETag) even
/// when the server said it would stay fresh longer. Like any stale page, it is still the answer when
/// the network or the server fails, marked stale. Without the option the response cache's own
/// freshness rules apply.
enum MaxAge {
    /// Whether page `number` is stored and was fetched more than `maxAge` seconds before `now`.
    static func isExceeded(for number: Int, maxAge: Int?, loader: PageLoader, now: Date = Date()) -> Bool {
        guard let maxAge, let fetchedAt = loader.storedMetadata(number)?.fetchedAt else { return false }
        return now.timeIntervalSince(fetchedAt) > Double(maxAge)
    }

    /// Loads page `number` through `loader` with `policy`, applying `maxAge` to a
    /// `.returnCacheElseLoad` load (an explicit reload or `--offline` is left as asked).
    static func load(_ number: Int, policy: CachePolicy, maxAge: Int?, loader: PageLoader,
                     now: Date = Date()) async throws(FeedError) -> Page {
        guard policy == .returnCacheElseLoad, isExceeded(for: number, maxAge: maxAge, loader: loader, now: now) else {
            return try await loader.load(number, policy: policy)
        }
        do {
            return try await loader.load(number, policy: .returnCacheThenLoad)
        } catch {
            // As the cache's stale-if-error: no answer at all, or a server error.
            guard error.isConnectivityFailure || error.requestError?.isServerError == true,
                  var stored = try? await loader.load(number, policy: .returnCacheDontLoad) else { throw error }
            stored.source = .stale
            return stored
        }
    }
}

private extension RiffleError {
    var isServerError: Bool {
        if case .httpStatus(let code, _) = self { return code >= 500 }
        if case .transport = self { return true }
        return false
    }
}
