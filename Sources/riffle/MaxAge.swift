import Foundation
import RiffleKit

/// `--max-age SECONDS`, the user's limit on a page's age, like a request's `Cache-Control: max-age`:
/// a stored page older than that is fetched again even when the server said it would stay fresh
/// longer. Without it the response cache's own freshness rules (and ETag revalidation) apply.
enum MaxAge {
    static func policy(for page: Int, requested: CachePolicy, maxAge: Int?, store: PageStore, now: Date = Date()) -> CachePolicy {
        guard requested == .returnCacheElseLoad, let maxAge, let fetchedAt = store.readMetadata(page)?.fetchedAt else { return requested }
        return now.timeIntervalSince(fetchedAt) > Double(maxAge) ? .reloadIgnoringCache : requested
    }
}
