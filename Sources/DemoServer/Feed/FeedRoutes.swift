import Foundation
import Synchronization

/// Answers the demo feed's HTTP requests. Kept apart from `DemoFeedServer` so the server's handler does
/// not retain the object that owns the server.
final class FeedRoutes: Sendable {
    struct Control {
        var latency: Duration
        var failPage: Int?
        var brokenPages: [Int: DemoFeedServer.Breakage] = [:]
        var pageRequests: [Int: Int] = [:]
    }

    struct Rendered {
        var body: Data
        var etag: String
    }

    let feed: DemoFeed
    let control: Mutex<Control>
    /// What every page says of its freshness.
    private let cacheControl: String
    private let pages: [Rendered]

    init(feed: DemoFeed, latency: Duration, failPage: Int?, maxAge: Int) {
        self.feed = feed
        cacheControl = "max-age=\(maxAge)"
        control = Mutex(Control(latency: latency, failPage: failPage))
        // Pages never change while serving, so their bodies and tags are computed once.
        pages = (1...max(1, feed.pageCount)).map { page in
            let body = feed.pageJSON(page)
            return Rendered(body: body, etag: ETag.of(body))
        }
    }

    func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        let response: HTTPServer.Response
        var latency = Duration.zero
        switch request.path {
        case "/api/items":
            guard request.method == "GET" || request.method == "HEAD" else {
                return .text("use GET\n", status: 405, headers: [("Allow", "GET, HEAD")])
            }
            guard let page = Int(request.query("page") ?? "1"), page >= 1 else {
                return .text("page must be a whole number from 1\n", status: 400)
            }
            let (delay, breakage) = control.withLock { control in
                control.pageRequests[page, default: 0] += 1
                let breakage = control.failPage == page ? .status(500) : control.brokenPages[page]
                return (control.latency, breakage)
            }
            latency = delay
            response = answer(page: page, breakage: breakage, ifNoneMatch: request.header("If-None-Match"))
        case "/", "/api":
            response = .text("Riffle demo feed: GET /api/items?page=N (1...\(feed.pageCount), \(feed.perPage) items each)\n")
        default:
            response = .text("not found: \(request.path)\n", status: 404)
        }
        return response.delayed(by: latency)
    }

    private func answer(page: Int, breakage: DemoFeedServer.Breakage?, ifNoneMatch: String?) -> HTTPServer.Response {
        let rendered: Rendered
        switch breakage {
        case let .status(code)?:
            return .text("demo page \(page) fails on purpose (HTTP \(code))\n", status: code,
                         headers: [("Cache-Control", "no-store")])
        case .invalidJSON?:
            let whole = page <= pages.count ? pages[page - 1].body : feed.pageJSON(page)
            let cut = whole.prefix(max(1, whole.count / 2))
            rendered = Rendered(body: cut, etag: ETag.of(cut))
        case .noItems?:
            let body = feed.pageJSON(page, includingItems: false)
            rendered = Rendered(body: body, etag: ETag.of(body))
        case nil:
            if page <= pages.count {
                rendered = pages[page - 1]
            } else {
                let body = feed.pageJSON(page)
                rendered = Rendered(body: body, etag: ETag.of(body))
            }
        }
        let headers = [("ETag", rendered.etag), ("Cache-Control", cacheControl)]
        if let ifNoneMatch, ETag.matches(ifNoneMatch: ifNoneMatch, tag: rendered.etag) {
            return HTTPServer.Response(status: 304, headers: headers)
        }
        return .json(rendered.body, headers: headers)
    }
}
