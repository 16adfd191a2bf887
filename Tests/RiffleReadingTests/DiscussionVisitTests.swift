import Foundation
import Testing
@testable import RiffleReading

@Suite("ReadingLog: visits to a discussion")
struct DiscussionVisitTests {
    @Test func eachVisitAnswersTheNewestCommentTheVisitBeforeSaw() async throws {
        let folder = ReadingLogTests.Folder()
        let log = ReadingLog(cacheDirectory: folder.url)
        let t1 = Date(timeIntervalSince1970: 1_700_000_000), t2 = t1.addingTimeInterval(60)
        // A first visit: nothing to compare with
        #expect(try await log.noteDiscussion(feed: "hn", key: "id:1", newest: t1) == nil)
        // The next one is told what the first saw, per item and feed
        #expect(try await log.noteDiscussion(feed: "hn", key: "id:1", newest: t2) == ReadingLog.DiscussionVisit(newest: t1))
        #expect(try await log.noteDiscussion(feed: "lobsters", key: "id:1", newest: t2) == nil)
        // A thread that lost its newest comment (deleted) does not make older ones new again
        #expect(try await log.noteDiscussion(feed: "hn", key: "id:1", newest: t1) == ReadingLog.DiscussionVisit(newest: t2))
        #expect(try await log.noteDiscussion(feed: "hn", key: "id:1", newest: nil) == ReadingLog.DiscussionVisit(newest: t2))
        // And a new log on the same folder remembers
        let again = ReadingLog(cacheDirectory: folder.url)
        #expect(try await again.noteDiscussion(feed: "hn", key: "id:1", newest: nil) == ReadingLog.DiscussionVisit(newest: t2))
    }
}
