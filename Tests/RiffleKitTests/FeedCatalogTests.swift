import Foundation
import Testing
@testable import RiffleKit

@Suite("Feeds files and their bad-input messages")
struct FeedCatalogTests {
    func parse(_ text: String) throws(FeedCatalog.Error) -> FeedCatalog {
        try FeedCatalog.parse(Data(text.utf8), file: "/home/u/.config/riffle/feeds.json")
    }

    func message(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return error.description }
    }

    @Test func theReadmeExampleParsesIntoEveryStyle() throws {
        let data = try Data(contentsOf: Fixture.url("feeds-example.json"))
        let catalog = try FeedCatalog.parse(data, file: "feeds.json")
        #expect(catalog.definitions.map(\.name) == ["my-issues", "algolia-swift", "catalog", "slack-like"])
        let issues = try #require(catalog["my-issues"])
        #expect(issues.pagination == Pagination(.linkHeader))
        #expect(issues.fields.subtitle == ["repository.full_name", "user.login"])
        #expect(issues.headers["Authorization"] == "Bearer ${GITHUB_TOKEN}")
        #expect(issues.maxAge == 900)
        #expect(catalog["algolia-swift"]?.pagination == Pagination(.pageNumber(firstPage: 0)))
        #expect(catalog["catalog"]?.pagination == Pagination(.offset(limit: 50), hasMorePath: "meta.has_more"))
        #expect(catalog["catalog"]?.envelope == EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: [],
                                                            messagePaths: [["error", "message"]], missingFlag: .success))
        #expect(catalog["slack-like"]?.pagination.style == .cursor(path: "response_metadata.next_cursor", parameter: "cursor"))
        let feed = try issues.feed(argument: nil)
        #expect(feed.url(forPage: 1).absoluteString == "https://api.github.com/issues?filter=assigned&per_page=50&state=open")
    }

    @Test func fieldsNameEveryPartAnItemHasAndPathsMayEscapeADot() throws {
        let text = #"{"feeds": {"pinned": {"url": "https://x.org/{page}", "items": "data.children", "fields": {"title": "title", "#
            + #""link": "links.html.href", "author": "user.login", "time": "created_at", "score": "reactions.+1", "comments": "num_comments", "#
            + #""id": "@odata\\.id"}}}}"#
        let fields = try #require(try parse(text)["pinned"]).fields
        #expect(fields == FieldMapping(title: "title", link: "links.html.href", id: JSONPath(components: ["@odata.id"]), time: "created_at",
                                       author: "user.login", score: "reactions.+1", comments: "num_comments"))
        #expect(try #require(try parse(text)["pinned"]).itemPath == "data.children")
    }

    @Test func theReadmeShowsExactlyThisExample() throws {
        // Tests/RiffleKitTests/FeedCatalogTests.swift: three levels below the package root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let example = try String(contentsOf: Fixture.url("feeds-example.json"), encoding: .utf8)
        #expect(readme.contains("```json\n" + example))
    }

    @Test func aSyntaxErrorNamesTheFileAndLine() {
        let text = "{\n  \"feeds\": {\n    \"a\": {\"url\": \"https://x.org/{page}\",}\n  }\n}"
        #expect(message(text)?.hasPrefix("/home/u/.config/riffle/feeds.json:3: not valid JSON") == true)
    }

    @Test(arguments: [
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "pagination": {"style": "pages"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'pagination.style': expected one of page, offset, cursor, link, got 'pages'"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "itmes": "hits"}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'itmes': unknown field (expected one of argument, comments, description, envelope, fields, headers, hide, items, maxAge, pagination, query, secrets, url)"),
        (#"{"feeds": {"gh": {"description": "no url"}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'url': missing"),
        (#"{"feeds": {"gh": {"url": "https://x.org/list", "pagination": {"style": "page"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'url': the URL has no {page} placeholder: https://x.org/list"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "fields": {"subtitle": "author"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'fields.subtitle': expected an array of strings, got a string"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "maxAge": "soon"}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'maxAge': expected seconds or text like \"15m\", \"2h\", \"1d\", got 'soon'"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "maxAge": "0x10m"}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'maxAge': expected seconds or text like \"15m\", \"2h\", \"1d\", got '0x10m'"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "maxAge": "infh"}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'maxAge': expected seconds or text like \"15m\", \"2h\", \"1d\", got 'infh'"),
        (#"{"feeds": {"gh": {"url": "https://x.org/", "pagination": {"style": "cursor", "path": "next"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'pagination.param': missing"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "headers": {"Authorization": 42}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'headers.Authorization': expected a string, got a number"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "headers": {"X Token": "a"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'headers.X Token': not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "headers": {"X-Token:": "a"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'headers.X-Token:': not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "headers": {"X-Token": "a\r\nEvil: 1"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'headers.X-Token': holds a line break or NUL, which would split the request"),
        (#"{"feeds": {"gh": 5}}"#, "/home/u/.config/riffle/feeds.json: feed 'gh': field '(value)': expected a preset, a URL or an object, got a number"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "query": {"api-key": "${NYT KEY}"}}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'query.api-key': '${NYT KEY}' is not an environment variable name"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "query": {"k": "${K}"}, "secrets": ["key"]}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'secrets': 'key' is not a parameter of this feed's query"),
        (#"{"feeds": {"gh": {"url": "https://x.org/{page}", "secrets": "k"}}}"#,
         "/home/u/.config/riffle/feeds.json: feed 'gh': field 'secrets': expected an array of query parameter names, got a string"),
        (#"{"feeds": ["gh"]}"#,
         "/home/u/.config/riffle/feeds.json: field 'feeds': expected an object of feeds by name, got an array"),
    ])
    func aWrongFieldNamesTheFileFeedAndField(text: String, expected: String) {
        #expect(message(text) == expected)
    }

    /// An entry without `pagination` is paged as its URL's placeholders say; a URL with none is page 1
    /// as is, then the pages its answers link to (a feed of one page when they link to none).
    @Test func anEntryWithoutPaginationIsPagedAsItsURLSays() throws {
        let catalog = try parse(#"{"feeds": {"a": {"url": "https://x.org/list"}, "b": "https://x.org/list?page={page}", "#
            + #""c": {"url": "https://x.org/list?offset={offset}&limit={limit}"}, "d": "https://x.org/list"}}"#)
        #expect(catalog["a"]?.pagination == Pagination(.linkHeader))
        #expect(catalog["b"]?.pagination == Pagination(.pageNumber(firstPage: 1)))
        #expect(catalog["c"]?.pagination == Pagination(.offset(limit: 25)))
        #expect(catalog["d"]?.pagination == Pagination(.linkHeader))
    }

    @Test func secretsNameTheQueryParametersThatAreCredentials() throws {
        let text = #"{"feeds": {"a": {"url": "https://x.org/{page}", "query": {"u": "${USER_HASH}", "api_key": "${KEY}"}, "secrets": ["u"]}, "#
            + #""b": {"url": "https://x.org/{page}", "query": {"api_key": "${KEY}", "per_page": "${N}"}}}}"#
        let catalog = try FeedCatalog.parse(Data(text.utf8), file: "feeds.json")
        let listed = try #require(catalog["a"]).feed(argument: nil)
        #expect(listed.secrets == ["u"] && listed.isSecretQueryParameter("u") && !listed.isSecretQueryParameter("api_key"))
        let byName = try #require(catalog["b"]).feed(argument: nil)
        #expect(byName.secrets == nil && byName.isSecretQueryParameter("api_key") && !byName.isSecretQueryParameter("per_page"))
    }

    @Test func aResponseWithoutAnItemArraySaysWhichKeysItSaw() throws {
        let document = Data(#"{"status": "ok", "total": 3, "next": null}"#.utf8)
        #expect(throws: FeedError.noItems(keys: ["status", "total", "next"])) { try ItemExtractor.items(in: document, itemPath: nil) }
        let error = FeedError.noItems(keys: ["status", "total", "next"])
        #expect(error.description == "no list of items in the response (top-level keys: status, total, next)")
        #expect(throws: FeedError.noItems(keys: ["status", "total", "next"])) { try ItemExtractor.items(in: document, itemPath: "data") }
    }
}
