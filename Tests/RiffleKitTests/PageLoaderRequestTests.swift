import DemoServer
import Foundation
import Testing
@testable import RiffleKit

/// Seed 003's paged list: pages asked for with a POST body (`{"page": N, "rows": 2}`), answered in a
/// `{code, data}` envelope, each kept on disk as its own file. Served on 127.0.0.1.
@Suite("PageLoader with a request template: method, body with {page}/{offset}, envelope")
struct PageLoaderRequestTests {
    let server: HTTPServer
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-page-request-\(UUID().uuidString)")

    init() throws {
        server = try HTTPServer { request in
            guard request.method == "POST" else { return .json(#"{"code": 405, "message": "POST only"}"#, status: 405) }
            let fields: [String: Int]
            if request.header("content-type") == "application/json",
               let object = try? JSONParser.parse(request.body).objectValue {
                fields = Dictionary(uniqueKeysWithValues: object.members.compactMap { member in
                    member.value.doubleValue.map { (member.key, Int($0)) }
                })
            } else {
                let pairs = String(decoding: request.body, as: UTF8.self).split(separator: "&").map { $0.split(separator: "=") }
                fields = Dictionary(uniqueKeysWithValues: pairs.compactMap { $0.count == 2 ? (String($0[0]), Int($0[1]) ?? 0) : nil })
            }
            let rows = fields["rows"] ?? fields["limit"] ?? 2
            let start = fields["offset"] ?? ((fields["page"] ?? 1) - 1) * rows
            if start < 0 { return .json(#"{"code": "500", "message": "页码错误"}"#) }
            let items = (start..<min(start + rows, 5)).map { #"{"id": \#($0 + 1), "title": "waybill \#($0 + 1)"}"# }
            return .json(#"{"code": "200", "data": {"total": 5, "rows": [\#(items.joined(separator: ", "))]}}"#)
        }
    }

    func loader(_ request: PageRequest, pagination: Pagination = Pagination(.pageNumber(firstPage: 1)),
                itemPath: JSONPath? = "data.rows") throws -> PageLoader {
        let feed = try Feed(template: server.baseURL.absoluteString + "/waybill/grabPage", name: "waybills", pagination: pagination,
                            itemPath: itemPath, request: request, envelope: .codeData)
        return PageLoader(feed: feed, cacheDirectory: directory, transport: CurlTransport())
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }

    @Test func pagesArePOSTedWithTheirNumberInTheBodyAndKeptOnDisk() async throws {
        defer { cleanUp() }
        let loader = try loader(.post(json: #"{"page": {page}, "rows": 2}"#))
        let first = try await loader.load(1)
        let second = try await loader.load(2)
        #expect(first.items.map(\.title) == ["waybill 1", "waybill 2"])
        #expect(second.items.map(\.title) == ["waybill 3", "waybill 4"])
        let sent = server.requests
        #expect(sent.map(\.method) == ["POST", "POST"])
        #expect(sent.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"page": 1, "rows": 2}"#, #"{"page": 2, "rows": 2}"#])
        #expect(sent.first?.header("content-type") == "application/json")
        #expect(FileManager.default.fileExists(atPath: loader.store.bodyURL(2).path))
        // Each page is its own cache entry, keyed by its body: asked again, it comes from disk.
        #expect(try await loader.load(1).source == .cache)
        #expect(try await loader.load(2).source == .cache)
        #expect(server.requestCount == 2)
        // The last page says so (total reached), and cache-only works with the server gone.
        #expect(try await loader.load(3).isLastPage)
        server.stop()
        #expect(try await loader.load(2, policy: .returnCacheDontLoad).items.count == 2)
    }

    @Test func anOffsetCanTravelInAFormBody() async throws {
        defer { cleanUp() }
        let loader = try loader(.post(form: "offset={offset}&limit={limit}"), pagination: Pagination(.offset(limit: 2)))
        #expect(try await loader.load(2).items.map(\.title) == ["waybill 3", "waybill 4"])
        // Page 1 first: where page 2 starts depends on what page 1 held (a server may cap the limit).
        #expect(server.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["offset=0&limit=2", "offset=2&limit=2"])
        #expect(server.requests.first?.header("content-type") == "application/x-www-form-urlencoded")
    }

    @Test func theItemsAreFoundInsideTheEnvelopeWithoutAPath() async throws {
        defer { cleanUp() }
        let loader = try loader(.post(json: #"{"page": {page}, "rows": 2}"#), itemPath: nil)
        #expect(try await loader.load(1).items.map(\.title) == ["waybill 1", "waybill 2"])
    }

    @Test func aFailureEnvelopeIsAnErrorAndNothingIsStored() async throws {
        defer { cleanUp() }
        let loader = try loader(.post(json: #"{"page": {page}, "rows": 2}"#), pagination: Pagination(.pageNumber(firstPage: -5)))
        await #expect(throws: FeedError.request(.envelope(message: "页码错误"))) { try await loader.load(1) }
        #expect(!FileManager.default.fileExists(atPath: loader.store.bodyURL(1).path))
    }

    @Test func thePlaceholderMayBeInTheBodyInsteadOfTheURL() throws {
        #expect(throws: Feed.TemplateError.missingPlaceholder("https://api.example.com/list")) {
            try Feed(template: "https://api.example.com/list", pagination: Pagination(.pageNumber(firstPage: 1)))
        }
        let post = try Feed(template: "https://api.example.com/list", pagination: Pagination(.pageNumber(firstPage: 1)),
                            request: .post(json: #"{"page": {page}}"#))
        let get = try Feed(template: "https://api.example.com/list?page={page}", pagination: Pagination(.pageNumber(firstPage: 1)))
        #expect(post.body(forPage: 3) == .raw(Data(#"{"page": 3}"#.utf8), contentType: "application/json"))
        #expect(get.body(forPage: 3) == nil)
        #expect(get.cacheIdentity == "https://api.example.com/list?page={page}")
        #expect(post.id != (try Feed(template: "https://api.example.com/list", pagination: Pagination(.pageNumber(firstPage: 1)),
                                     request: .post(json: #"{"page": {page}, "rows": 5}"#))).id)
    }
}
