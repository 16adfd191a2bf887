import DemoServer
import Foundation
import Testing
@testable import RiffleKit

@Suite("A feed's envelope is one of the client's envelope rules")
struct FeedEnvelopeTests {
    @Test func feedsJSONEnvelopesBecomeRulesThatPassWithoutTheFlag() throws {
        let text = #"""
        {"feeds": {
          "slack": {"url": "https://slack.com/api/conversations.list?page={page}", "envelope": {"success": "ok", "error": "error.message"}},
          "coded": {"url": "https://api.example.com/list?page={page}", "envelope": {"success": "code", "value": 200}}
        }}
        """#
        let catalog = try FeedCatalog.parse(Data(text.utf8), file: "feeds.json")
        let slack = try #require(catalog["slack"]?.envelope)
        #expect(slack == EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: [], messagePaths: [["error", "message"]],
                                      missingFlag: .success))
        #expect(try slack.unwrap(["items": []]) == ["items": []])
        #expect(throws: RiffleError.envelope(message: "nope")) { try slack.unwrap(["ok": false, "error": ["message": "nope"]]) }
        let coded = try #require(catalog["coded"]?.envelope)
        #expect(throws: RiffleError.envelope(message: "busy")) { try coded.unwrap(["code": "503", "msg": "busy"]) }
        #expect(try coded.unwrap(["code": "200", "data": [1]]) == ["code": "200", "data": [1]])
    }

    @Test func aPageWithAFailureEnvelopeOnAnErrorStatusShowsTheServersMessage() async throws {
        let server = try HTTPServer { _ in .json(#"{"ok": false, "error": {"message": "invalid_auth"}}"#, status: 401) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-envelope-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rule = EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: [], messagePaths: [["error", "message"]], missingFlag: .success)
        let feed = try Feed(template: server.baseURL.absoluteString + "/list?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            envelope: rule)
        let loader = PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
        await #expect(throws: FeedError.request(.envelope(message: "invalid_auth"))) { try await loader.load(1) }
    }
}
