import Foundation

extension HTTPServer {
    /// One request as the server received it.
    public struct Request: Sendable, CustomStringConvertible {
        /// The method as sent, e.g. `GET`.
        public var method: String
        /// The request target as sent, including any query, e.g. `/api/items?page=2`.
        public var target: String
        /// The target's path without the query, not percent-decoded (so `%2F` stays distinguishable from `/`).
        public var path: String
        /// The query's name/value pairs in order, percent-decoded, `+` read as a space.
        public var queryItems: [(name: String, value: String)]
        /// `HTTP/1.1` or `HTTP/1.0`.
        public var version: String
        /// Header fields in the order received, names lowercased.
        public var headers: [(name: String, value: String)]
        /// The body (empty when there is none).
        public var body: Data
        /// When the whole request had been read (for benchmarks that look at a client's pacing).
        public var receivedAt: ContinuousClock.Instant

        /// Creates a request; the server builds these, tests may too when calling a handler directly.
        public init(method: String, target: String, version: String = "HTTP/1.1",
                    headers: [(name: String, value: String)] = [], body: Data = Data(),
                    receivedAt: ContinuousClock.Instant = .now) {
            self.method = method
            self.receivedAt = receivedAt
            self.target = target
            self.version = version
            self.headers = headers.map { (name: $0.name.lowercased(), value: $0.value) }
            self.body = body
            let (path, query) = Self.split(target: target)
            self.path = path
            self.queryItems = query.map(Self.parseQuery) ?? []
        }

        /// The value of header `name` (any case); repeated fields are joined with ", " as RFC 9110 allows.
        public func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            let values = headers.filter { $0.name == wanted }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }

        /// The first value of query parameter `name`.
        public func query(_ name: String) -> String? {
            queryItems.first { $0.name == name }?.value
        }

        public var description: String { "\(method) \(target)" }

        /// Splits off the query; an absolute-form target (`http://host/path`) is reduced to its path.
        static func split(target: String) -> (path: String, query: Substring?) {
            var rest = Substring(target)
            if rest.hasPrefix("http://") || rest.hasPrefix("https://"),
               let schemeEnd = rest.range(of: "://") {
                let afterScheme = rest[schemeEnd.upperBound...]
                rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
            }
            guard let mark = rest.firstIndex(of: "?") else { return (String(rest), nil) }
            return (String(rest[..<mark]), rest[rest.index(after: mark)...])
        }

        static func parseQuery(_ query: Substring) -> [(name: String, value: String)] {
            query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? decode(parts[1]) : ""
                return (name: decode(parts[0]), value: value)
            }
        }

        private static func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
    }
}
