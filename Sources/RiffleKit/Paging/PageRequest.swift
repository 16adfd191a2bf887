import Foundation

/// How a feed's pages are asked for besides their URL: the method and a body template whose
/// placeholders (`{page}`, `{offset}`, `{limit}`, as in the URL template) are filled in for each page.
/// Most feeds are GETs; this is for page APIs that take their page in a POST body, as the seeds' list
/// loader did (`{"page": 2, "rows": 20}`).
///
/// ```swift
/// let waybills = try Feed(template: "https://api.example.com/waybill/grabPage", name: "waybills",
///                         pagination: Pagination(.pageNumber(firstPage: 1)),
///                         request: .post(json: #"{"page": {page}, "rows": 20}"#),
///                         envelope: .codeData)
/// ```
///
/// Such a page is a read: its answer is cached keyed by its body, retried like a GET, and identical
/// loads share one request.
public struct PageRequest: Sendable, Hashable {
    /// The method.
    public var method: HTTPMethod
    /// The body, with the pagination's placeholders; nil: no body.
    public var body: String?
    /// The body's `Content-Type`.
    public var contentType: String

    /// A request template; `body` may hold the pagination placeholders (`{page}`, `{offset}`, `{limit}`, `{cursor}`).
    public init(method: HTTPMethod, body: String? = nil, contentType: String = "application/json") {
        self.method = method
        self.body = body
        self.contentType = contentType
    }

    /// A GET with no body: the default.
    public static let get = PageRequest(method: .get)

    /// A POST of a JSON body template, e.g. `{"page": {page}, "rows": 20}` (numbers go in unquoted).
    public static func post(json body: String) -> PageRequest {
        PageRequest(method: .post, body: body, contentType: "application/json")
    }

    /// A POST of a form body template, e.g. `page={page}&rows=20`.
    public static func post(form body: String) -> PageRequest {
        PageRequest(method: .post, body: body, contentType: "application/x-www-form-urlencoded")
    }
}

extension Feed {
    /// The body of Riffle's page `number` (1-based), placeholders filled in; nil when the feed sends none.
    /// A sequential feed (cursor, Link header) sends page 1's body with every page.
    public func body(forPage number: Int) -> RequestBody? {
        body(forPage: number, offsetStep: nil)
    }

    /// `body(forPage:)`, an offset feed's pages `step` items apart rather than its limit (`Pagination.substitute`).
    func body(forPage number: Int, offsetStep step: Int?) -> RequestBody? {
        guard let body = request.body else { return nil }
        let filled = pagination.substitute(body, page: pagination.isSequential ? 1 : number, offsetStep: step)
        return .raw(Data(filled.utf8), contentType: request.contentType)
    }
}
