import Foundation
import Synchronization

/// A clock tests move by hand, so freshness never depends on real time.
package final class CacheTestClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
    package init() {}
    package func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    package var date: Date { now.withLock { $0 } }
    package var closure: @Sendable () -> Date { { self.date } }
}
