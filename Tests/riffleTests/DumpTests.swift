import Foundation
import Testing

@Suite("riffle dump: formats, fields and page order")
struct DumpTests {
    @Test func jsonlPrintsOneItemPerLineInFeedOrder() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--pages", "1-2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "nothing on stderr when it is not a terminal: \(result.stderr)")
        let objects = try DumpFixture.objects(result.stdout)
        #expect(objects.map { DumpFixture.text($0["id"]) } == fixture.ids(pages: 1...2))
        #expect(objects.allSatisfy { $0["title"] is String && $0["body"] is String })
    }

    @Test func defaultIsPageOne() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump([])
        #expect(try DumpFixture.objects(result.stdout).map { DumpFixture.text($0["id"]) } == fixture.ids(pages: 1...1))
    }

    @Test func jsonFormatIsOneArray() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--format", "json", "--pages", "2"])
        #expect(result.status == 0)
        let array = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { DumpFixture.text($0["id"]) } == fixture.ids(pages: 2...2))
    }

    @Test func fieldsTrimJSONLinesToThoseKeysInOrder() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--fields", "id,title,missing"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == fixture.ids(pages: 1...1).count)
        let first = try #require(lines.first)
        // `id` is the part the browser has, as text; `missing` a path the items do not have.
        #expect(first.hasPrefix("{\"id\":\"\(fixture.ids(pages: 1...1)[0])\",\"title\":\""))
        #expect(first.hasSuffix(",\"missing\":null}"))
    }

    @Test func tsvPrintsTheChosenFieldsOneItemPerLine() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--format", "tsv", "--fields", "id,author,score", "--pages", "1-2"])
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let items = Array(fixture.server.feed.items.prefix(rows.count))
        #expect(rows.count == fixture.ids(pages: 1...2).count)
        // A score of zero is left out, as the list leaves it out.
        #expect(rows.map { $0.map(String.init) } == items.map { [String($0.id), $0.author, $0.score == 0 ? "" : String($0.score)] })
    }

    @Test func tsvDefaultsToWhatTheBrowserShows() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--format", "tsv"])
        let first = try #require(result.stdout.split(separator: "\n").first)
        let item = fixture.server.feed.items[0]
        let time = ISO8601DateFormatter().string(from: item.createdAt)
        // title, link, author, time, score, id, comments (the demo's items have none).
        #expect(first == "\(item.title)\t\(item.url)\t\(item.author)\t\(time)\t\(item.score == 0 ? "" : String(item.score))\t\(item.id)\t")
    }

    @Test func aPathReadsTheItemAsSentAndAPartAsShown() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--fields", "title,.title,created_at,time"])
        let first = try #require(try DumpFixture.objects(result.stdout).first)
        let item = fixture.server.feed.items[0]
        #expect(first["title"] as? String == item.title && first[".title"] as? String == item.title)
        // The raw member as the server wrote it, and the time the browser shows (the same instant).
        #expect(first["created_at"] as? String == ISO8601DateFormatter().string(from: item.createdAt))
        #expect(first["time"] as? String == ISO8601DateFormatter().string(from: item.createdAt))
    }

    @Test func pagesComeOutInOrderUnderConcurrency() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(["--pages", "1-12", "--concurrency", "6"])
        #expect(result.status == 0)
        #expect(try DumpFixture.objects(result.stdout).map { DumpFixture.text($0["id"]) } == fixture.ids(pages: 1...12))
        #expect((1...12).allSatisfy { fixture.server.requestCount(page: $0) == 1 })
    }

    @Test func pagesLandInTheFeedFolder() async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        _ = try await fixture.dump(["--pages", "2-3"])
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.feedFolder.path)
        #expect(names.contains("feed_2.json") && names.contains("feed_3.json") && !names.contains("feed_1.json"))
    }
}
