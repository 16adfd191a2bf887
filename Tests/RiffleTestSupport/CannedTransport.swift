import Foundation
import RiffleHTTP

/// A transport that answers every request with one body (200, JSON) and counts the requests: for
/// storing a known page through the real pipeline and cache without a server.
package struct CannedTransport: HTTPTransporting {
    package let body: Data
    package let headers: [String: String]

    package init(_ body: Data, headers: [String: String] = ["content-type": "application/json"]) {
        self.body = body
        self.headers = headers
    }

    package func send(_ request: HTTPRequest, context: TransferContext) async throws(RiffleError) -> HTTPResponse {
        HTTPResponse(status: 200, headers: headers, body: body, url: request.url)
    }
}
