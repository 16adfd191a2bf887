import Foundation
import RiffleKit
import Testing
@testable import riffle

@Suite("--max-age, the user's limit on a stored page's age")
struct MaxAgeTests {
    @Test func olderPagesAreFetchedAgainOthersComeFromTheCache() throws {
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = PageStore(cacheDirectory: folder, feedID: "f")
        let fetched = Date(timeIntervalSince1970: 1_000_000)
        try store.write(1, data: Data("[]".utf8), metadata: .init(url: "http://127.0.0.1/1", fetchedAt: fetched, status: 200))
        let later = fetched.addingTimeInterval(120)

        #expect(MaxAge.policy(for: 1, requested: .returnCacheElseLoad, maxAge: 60, store: store, now: later) == .reloadIgnoringCache)
        #expect(MaxAge.policy(for: 1, requested: .returnCacheElseLoad, maxAge: 600, store: store, now: later) == .returnCacheElseLoad)
        #expect(MaxAge.policy(for: 1, requested: .returnCacheElseLoad, maxAge: nil, store: store, now: later) == .returnCacheElseLoad)
        #expect(MaxAge.policy(for: 2, requested: .returnCacheElseLoad, maxAge: 60, store: store, now: later) == .returnCacheElseLoad,
                "a page not on disk is the cache's to find")
        #expect(MaxAge.policy(for: 1, requested: .returnCacheDontLoad, maxAge: 60, store: store, now: later) == .returnCacheDontLoad,
                "--offline stays offline")
    }
}
