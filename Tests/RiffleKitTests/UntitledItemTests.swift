import Foundation
import Testing
@testable import RiffleKit

/// Items with nothing that reads as a headline: a date is never made one (it shows as the item's age
/// already); a short text in an object the item holds is, else "(untitled)".
@Suite("Untitled items")
struct UntitledItemTests {
    @Test func aDateIsNeverTheHeadline() throws {
        // Given readings that hold numbers and a time, and nothing else
        let body = #"{"data": [{"id": 1, "created_at": "2024-11-29T10:41:12Z", "value": 3.5}, "#
            + #"{"id": 2, "created_at": "2024-11-29T11:41:12Z", "value": 4.5}, {"id": 3, "created_at": "2024-11-29T12:41:12Z", "value": 1.5}]}"#
        let items = try ItemExtractor.items(in: Data(body.utf8), baseURL: nil)
        // Then each is untitled, its time read as its time
        #expect(items.map(\.title) == ["(untitled)", "(untitled)", "(untitled)"])
        #expect(items.first?.createdAt == Date(timeIntervalSince1970: 1_732_876_872))
    }

    @Test func aShortTextOneObjectDownComesBeforeADate() throws {
        // Given GitHub's stargazers with `application/vnd.github.star+json`: a date and the user
        let body = #"[{"starred_at": "2024-11-29T10:41:12Z", "user": {"login": "octocat", "id": 1}}, "#
            + #"{"starred_at": "2024-11-28T09:01:02Z", "user": {"login": "hubot", "id": 2}}]"#
        let items = try ItemExtractor.items(in: Data(body.utf8), baseURL: nil)
        #expect(items.map(\.title) == ["octocat", "hubot"])
    }

    @Test(arguments: [("2024-11-29", true), ("2024-11-29T10:41:12Z", true), ("2024-1-29", false), ("Oslo 2024-11-29", false), ("12 C", false)])
    func datesAreToldByTheirFirstTenBytes(text: String, isDate: Bool) {
        #expect(ItemReader.isDate(text) == isDate)
    }
}
