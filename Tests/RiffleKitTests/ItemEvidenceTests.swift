import Foundation
import Testing
@testable import RiffleKit

/// Parts chosen by what the values look like across a page, wherever they live in the item, and a plan
/// that says why in words.
@Suite("Fields chosen by evidence")
struct ItemEvidenceTests {
    /// A page of `count` items made by `item(n)`.
    static func page(_ count: Int = 4, _ item: (Int) -> String) -> Data {
        Data(("[" + (0..<count).map(item).joined(separator: ",") + "]").utf8)
    }

    static let headlines = ["Rust in the kernel, a year on", "Why your parser is slow", "A terminal UI without a framework",
                            "The cost of a page of JSON"]

    @Test(arguments: [
        // A one-element array of strings (Crossref), beside a DOI, a publisher on every row, a type tag and a date.
        #"{"title": ["{h}"], "DOI": "10.1093/obo/97801998-{n}", "publisher": "Oxford University Press", "type": "journal-article", "created": "2024-01-0{n}"}"#,
        // A small wrapper object around the text (WordPress), with a slug beside it.
        #"{"title": {"rendered": "{h}"}, "slug": "post-number-{n}-here", "id": {n}}"#,
        // A rich-text array of runs (Notion), under a record two levels down.
        #"{"object": "page", "properties": {"Name": {"title": [{"type": "text", "plain_text": "{h}"}]}}, "id": "5c6a2821-6bb1-4a7e-b6e1-c50111515c3{n}"}"#,
        // A nested record (Google Books), and a short key-less enum.
        #"{"kind": "books#volume", "id": "zyTCAlFPjgY{n}", "volumeInfo": {"title": "{h}", "publisher": "Penguin"}}"#,
    ])
    func theHeadlineIsFoundWhereverItLives(template: String) throws {
        let data = Self.page { n in template.replacingOccurrences(of: "{h}", with: Self.headlines[n]).replacingOccurrences(of: "{n}", with: "\(n)") }
        #expect(try ItemExtractor.items(in: data).map(\.title) == Self.headlines)
    }

    @Test func aTitleInRunsIsJoinedAsWritten() throws {
        let data = Self.page(2) { n in
            #"{"id": \#(n), "properties": {"Name": {"title": [{"plain_text": "Riff"}, {"plain_text": "le &amp; the \#(n) runs"}]}}}"#
        }
        #expect(try ItemExtractor.items(in: data).map(\.title) == ["Riffle & the 0 runs", "Riffle & the 1 runs"])
    }

    @Test func theLinkIsThePageInANestedLinksObject() throws {
        let data = Self.page { n in
            #"{"title": "\#(Self.headlines[n])", "url": "https://api.example.com/v2/posts/\#(n)", "#
                + #""links": {"self": {"href": "https://api.example.com/v2/posts/\#(n)"}, "html": {"href": "https://example.com/p/\#(n)"}},"#
                + #""avatar": "https://example.com/img/\#(n).png"}"#
        }
        #expect(try ItemExtractor.items(in: data).map(\.url) == (0..<4).map { "https://example.com/p/\($0)" })
    }

    @Test func aLinkThatIsAPathIsResolvedAgainstThePage() throws {
        let data = Self.page { n in #"{"title": "\#(Self.headlines[n])", "permalink": "/r/swift/comments/\#(n)/post/"}"# }
        let base = URL(string: "https://www.reddit.com/r/swift.json?after=x")
        #expect(try ItemExtractor.items(in: data, baseURL: base).map(\.url) == (0..<4).map { "https://www.reddit.com/r/swift/comments/\($0)/post/" })
        // Without the page's URL there is nothing to resolve it against: no link rather than a wrong one.
        #expect(try ItemExtractor.items(in: data).map(\.url) == [nil, nil, nil, nil])
    }

    @Test func anItemsLinkToTheAPIIsNoLinkEvenWhereThePlanDidNotLook() throws {
        // Thirty items; ten are looked at (0, 3, 6...), and item 1's link is the API's own.
        let data = Self.page(30) { n in
            let url = n == 1 ? "https://example.com/api/stories/1" : "https://example.com/s/\(n)"
            return #"{"title": "story number \#(n) of thirty", "url": "\#(url)"}"#
        }
        let items = try ItemExtractor.items(in: data)
        #expect(items[0].url == "https://example.com/s/0" && items[1].url == nil && items[2].url == "https://example.com/s/2")
    }

    @Test func aRecordWithATableOfNameValuePairsIsNoFeed() throws {
        let json = #"{"id": 7, "name": "Widget", "price": "9.99", "specs": [{"name": "Colour", "value": "red"}, {"name": "Size", "value": "L"}]}"#
        #expect(throws: FeedError.notAList(fields: 3, path: "specs", rows: 2)) { try ItemExtractor.items(in: Data(json.utf8)) }
        #expect(FeedError.notAList(fields: 3, path: "specs", rows: 2).description
            == "the response is one record of 3 fields, not a list of items (specs holds 2 of its details)")
    }

    @Test func aRecordWhoseListsAreSmallPartsOfItIsNoFeed() throws {
        let scalars = (0..<10).map { #""field\#($0)": "value \#($0)""# }.joined(separator: ", ")
        let images = #"[{"src": "https://x.org/1.jpg", "alt": "front", "width": 800}, {"src": "https://x.org/2.jpg", "alt": "back", "width": 800}]"#
        let json = #"{"Title": "Mr. Nobody", \#(scalars), "images": \#(images)}"#
        #expect(throws: FeedError.notAList(fields: 11, path: "images", rows: 2)) { try ItemExtractor.items(in: Data(json.utf8)) }
        // A story with its comments is a list: each comment says as much as the story.
        let story = #"{"id": 1, "title": "A story", "author": "pg", "points": 3, "url": "https://x.org", "text": "t", "type": "story", "#
            + #""created_at": "2024-01-01T00:00:00Z", "children": [\#((0..<3).map { #"{"id": \#($0), "author": "a\#($0)", "text": "reply \#($0) here", "type": "comment", "created_at": "2024-01-01T00:00:0\#($0)Z", "points": null, "parent_id": 1, "story_id": 1}"# }.joined(separator: ","))]}"#
        #expect(try ItemExtractor.items(in: Data(story.utf8)).count == 3)
    }

    @Test func thePlanSaysWhyInWords() throws {
        let data = Self.page { n in
            #"{"kind": "books#volume", "id": "v\#(n)x9Qz", "etag": "Wq\#(n)Ld", "volumeInfo": {"title": "\#(Self.headlines[n])","#
                + #""publisher": "Penguin Random House", "publishedDate": "200\#(n)"}}"#
        }
        let plan = try ItemExtractor.plan(in: ItemExtractor.document(data, stored: false))
        #expect(plan.list.path.isEmpty && plan.sampled == 4)
        let title = plan[.title]
        #expect(title.path == "volumeInfo.title" && !title.configured)
        #expect(title.candidates.first?.reasons.contains("text of 5–7 words") == true, "\(title)")
        #expect(title.candidates.first?.reasons.contains("different on 4/4 items") == true, "\(title)")
        let publisher = try #require(title.candidates.first { $0.path == "volumeInfo.publisher" })
        #expect(publisher.reasons.contains("the same value on 4/4 items"), "\(publisher)")
        #expect(plan[.time].path == "volumeInfo.publishedDate")
        #expect(plan[.link].path == nil && plan[.link].candidates.isEmpty)
    }

    @Test func twoRecordsSideBySideAreAnItemNotAWrapper() throws {
        // Contentful's entries: `fields` and `sys` are both the item's; Reddit's `{kind, data}` wraps one.
        let entries = Self.page { n in
            #"{"fields": {"name": "\#(Self.headlines[n])", "color": "orange", "lives": \#(n)}, "#
                + #""sys": {"id": "e\#(n)", "type": "Entry", "createdAt": "2013-06-2\#(n)T22:46:20Z", "revision": 2, "locale": "en-US"}}"#
        }
        let items = try ItemExtractor.items(in: entries)
        #expect(items.map(\.title) == Self.headlines)
        #expect(items.first?.fields["sys"] != nil, "the item is the whole element")
        #expect(items.first?.createdAt == Timestamp.iso8601("2013-06-20T22:46:20Z"))
        let listing = Self.page { n in #"{"kind": "t3", "data": {"title": "\#(Self.headlines[n])", "id": "x\#(n)", "score": \#(n + 1)}}"# }
        let posts = try ItemExtractor.items(in: listing)
        #expect(posts.map(\.title) == Self.headlines)
        #expect(posts.first?.fields["kind"] == nil, "the item is what the wrapper holds")
    }

    @Test func aYearAloneAndDatePartsAreTimes() throws {
        let years = Self.page { n in #"{"title": "\#(Self.headlines[n])", "year": \#(1981 + n), "id": \#(n)}"# }
        #expect(try ItemExtractor.items(in: years).first?.createdAt == Timestamp.iso8601("1981-01-01"))
        let parts = Self.page { n in
            #"{"title": ["\#(Self.headlines[n])"], "published": {"date-parts": [[2022, 7, 2\#(n)]]}, "DOI": "10.1/\#(n)"}"#
        }
        #expect(try ItemExtractor.items(in: parts).map(\.createdAt) == (0..<4).map { Timestamp.iso8601("2022-07-2\($0)") })
        // Four digits under a key that says nothing of time are a number, not a year.
        let counts = Self.page { n in #"{"title": "\#(Self.headlines[n])", "pages": \#(1200 + n)}"# }
        #expect(try ItemExtractor.items(in: counts).first?.createdAt == nil)
    }

    @Test func theAuthorIsTheFirstOneBySurname() throws {
        let data = Self.page { n in
            #"{"title": "\#(Self.headlines[n])", "authors": [{"firstName": "Borja", "lastName": "Figueirido\#(n)"}, "#
                + #"{"firstName": "Ann", "lastName": "Lee"}], "last_poster_username": "sam"}"#
        }
        #expect(try ItemExtractor.items(in: data).map(\.author) == (0..<4).map { "Figueirido\($0)" })
    }

    @Test func aConfiguredFieldWinsItsPartAndOnlyItsPart() throws {
        let data = Self.page { n in #"{"title": "\#(Self.headlines[n])", "name": "n\#(n)", "by": "pg", "time": 170000000\#(n)}"# }
        let fields = FieldMapping(title: "name")
        let plan = try ItemExtractor.plan(in: ItemExtractor.document(data, stored: false), fields: fields)
        #expect(plan[.title].path == "name" && plan[.title].configured)
        #expect(plan[.author].path == "by" && !plan[.author].configured)
        #expect(plan.fieldMapping == FieldMapping(title: "name", time: "time", author: "by"))
        let items = try ItemExtractor.items(in: data, fields: fields)
        #expect(items.map(\.title) == ["n0", "n1", "n2", "n3"])
        #expect(items.map(\.author) == ["pg", "pg", "pg", "pg"])
    }
}
