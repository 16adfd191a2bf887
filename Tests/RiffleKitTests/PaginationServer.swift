import DemoServer
import Foundation

/// A 127.0.0.1 server speaking every pagination style over five items, two per page:
/// `/page?page=K`, `/offset?offset=X&limit=L` (`/capped?...` serving at most two), `/cursor[?after=cN]`, `/link[?p=K&...]`, `/more?page=K`, and pages
/// whose end only their body tells, as real APIs do: `/numbered?page=K` (`total_pages`), `/algolia?page=K`
/// (`nbPages`, counted from 0) and `/totals?page=K&per_page=N` (`total`).
enum PaginationServer {
    static let itemCount = 5
    static let perPage = 2

    static func start() throws -> HTTPServer {
        try HTTPServer { request in respond(to: request) }
    }

    /// Items `start..<start+count`, clipped to the five that exist.
    static func items(from start: Int, count: Int = perPage) -> String {
        let range = min(start, itemCount)..<min(itemCount, start + count)
        return "[" + range.map { #"{"id": \#($0 + 1), "title": "item \#($0 + 1)", "user": {"login": "u\#($0 + 1)"}}"# }
            .joined(separator: ",") + "]"
    }

    static func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        switch request.path {
        case "/page":  // zero-based pages
            let page = Int(request.query("page") ?? "") ?? 0
            return .json(#"{"hits": \#(items(from: page * perPage))}"#)
        case "/offset":
            let offset = Int(request.query("offset") ?? "") ?? 0
            let limit = Int(request.query("limit") ?? "") ?? perPage
            return .json(#"{"data": \#(items(from: offset, count: limit))}"#)
        case "/capped":  // offsets whose limit the server caps at `perPage`, as most APIs do
            let offset = Int(request.query("offset") ?? "") ?? 0
            let limit = Int(request.query("limit") ?? "") ?? perPage
            // `&said=body` or `&said=headers`: the total of items said there too.
            let said = request.query("said")
            return .json(#"{"data": \#(items(from: offset, count: min(limit, perPage)))\#(said == "body" ? #", "total": 5"# : "")}"#,
                         headers: said == "headers" ? [("X-Total-Count", "5")] : [])
        case "/cursor":  // cursors c1, c2, ... name the next page's index; null at the end
            let index = Int(request.query("after")?.dropFirst() ?? "") ?? 0
            let next = (index + 1) * perPage < itemCount ? #""c\#(index + 1)""# : "null"
            return .json(#"{"data": {"after": \#(next), "children": \#(items(from: index * perPage))}}"#)
        case "/link":  // like GitHub, the links carry the request's other parameters (a key included)
            let page = Int(request.query("p") ?? "") ?? 1
            let others = request.target.split(separator: "?", maxSplits: 1).dropFirst().first?
                .split(separator: "&").filter { !$0.hasPrefix("p=") }.map { "&" + $0 }.joined() ?? ""
            let headers = page * perPage < itemCount
                ? [(name: "Link", value: #"</link?p=\#(page + 1)\#(others)>; rel="next", </link?p=3\#(others)>; rel="last""#)] : []
            return .json(items(from: (page - 1) * perPage), headers: headers)
        case "/more":
            let page = Int(request.query("page") ?? "") ?? 1
            return .json(#"{"has_more": \#(page * perPage < itemCount), "items": \#(items(from: (page - 1) * perPage))}"#)
        case "/numbered":
            let page = Int(request.query("page") ?? "") ?? 1
            return .json(#"{"page": \#(page), "total_pages": 3, "hits": \#(items(from: (page - 1) * perPage))}"#)
        case "/algolia":
            let page = Int(request.query("page") ?? "") ?? 0
            return .json(#"{"hits": \#(items(from: page * perPage)), "nbHits": 5, "page": \#(page), "nbPages": 3, "hitsPerPage": 2}"#)
        case "/totals":
            let page = Int(request.query("page") ?? "") ?? 1
            let size = Int(request.query("per_page") ?? "") ?? perPage
            return .json(#"{"total": \#(itemCount), "results": \#(items(from: (page - 1) * size, count: size))}"#)
        case "/envelope":
            return .json(#"{"ok": false, "error": "invalid_auth", "items": []}"#)
        default:
            return .text("not found", status: 404)
        }
    }
}
