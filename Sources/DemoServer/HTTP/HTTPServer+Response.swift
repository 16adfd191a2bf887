import Foundation
import RiffleHTTP

extension HTTPServer {
    /// What a handler answers. The server adds `Content-Length` and `Connection` itself.
    ///
    /// ```swift
    /// let server = try HTTPServer { request in
    ///     request.path == "/hello" ? .text("hi") : .text("no such page", status: 404)
    /// }
    /// ```
    public struct Response: Sendable {
        /// The status code, e.g. 200.
        public var status: Int
        /// The reason phrase; defaults to the standard one for `status`.
        public var reason: String
        /// Header fields in the order they are sent.
        public var headers: [(name: String, value: String)]
        /// The body. Dropped on the wire for HEAD requests and for 1xx, 204 and 304 answers.
        public var body: Data
        /// How long the server waits before answering, to simulate latency or a server that hangs.
        /// The wait ends early when the client disconnects or the server stops.
        public var delay: Duration

        /// Creates a response; `reason` defaults to the standard phrase for `status`.
        public init(status: Int = 200, reason: String? = nil, headers: [(name: String, value: String)] = [],
                    body: Data = Data(), delay: Duration = .zero) {
            self.status = status
            self.reason = reason ?? Self.standardReason(status)
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// A JSON response (`Content-Type: application/json; charset=utf-8`).
        public static func json(_ body: Data, status: Int = 200, headers: [(name: String, value: String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: body)
        }

        /// A JSON response from text.
        public static func json(_ body: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> Response {
            json(Data(body.utf8), status: status, headers: headers)
        }

        /// A plain-text response (`Content-Type: text/plain; charset=utf-8`).
        public static func text(_ body: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Data(body.utf8))
        }

        /// A copy with `delay` set, for chaining: `.json(data).delayed(by: .milliseconds(150))`.
        public func delayed(by delay: Duration) -> Response {
            var copy = self
            copy.delay = delay
            return copy
        }

        /// The first value of header `name`, whatever its case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// Whether this status forbids a body (RFC 9110 §6.4.1).
        var forbidsBody: Bool { (100..<200).contains(status) || status == 204 || status == 304 }

        static func standardReason(_ status: Int) -> String {
            HTTPStatus.reason(status) ?? "Status \(status)"
        }
    }
}
