import Foundation

/// One HTTP request as a transport sends it: method, URL, headers as written, body and time budget.
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.github.com/repos/apple/swift")!)
/// request.headers["Accept"] = "application/vnd.github+json"
/// request.setCredential("Authorization", "Bearer \(token)")   // never sent to another origin
/// let response = try await CurlTransport().send(request)
/// ```
public struct HTTPRequest: Sendable, Equatable {
    /// The method.
    public var method: HTTPMethod
    /// Where the request goes: an `http` or `https` URL.
    public var url: URL
    /// Header fields in the order they are sent, names as written.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: Data?
    /// How long this attempt may take, connecting included; nil: the transport's default.
    public var timeout: Duration?
    /// Names (lowercased) of headers that carry credentials: with `Authorization`, `Cookie` and
    /// `Proxy-Authorization`, they are dropped when a redirect leads to another origin.
    public var credentialHeaders: Set<String> = []
    /// Names of query parameters that carry credentials (an API key in the URL): shown as `REDACTED` in
    /// `redactedURL`.
    public var credentialQueryItems: Set<String> = []

    /// A request for `url`.
    public init(_ method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil,
                timeout: Duration? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Sets a header that carries a credential: it goes to this request's origin only.
    public mutating func setCredential(_ name: String, _ value: String) {
        headers[name] = value
        credentialHeaders.insert(name.lowercased())
    }

    /// Whether header `name` carries a credential.
    public func isCredential(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return HTTPHeaders.alwaysCredentials.contains(lowered) || credentialHeaders.contains(lowered)
    }

    /// `url` fit for a log line: no user or password, credential query values replaced by `REDACTED`.
    public var redactedURL: String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "-" }
        parts.user = nil
        parts.password = nil
        if !credentialQueryItems.isEmpty, let items = parts.percentEncodedQueryItems {
            parts.percentEncodedQueryItems = items.map { item in
                credentialQueryItems.contains(item.name.removingPercentEncoding ?? item.name) && item.value != nil
                    ? URLQueryItem(name: item.name, value: "REDACTED") : item
            }
        }
        return parts.string ?? "-"
    }

    /// The scheme, host and port this request goes to.
    public var origin: Origin? { Origin(url) }
}

/// A scheme, host and port: what credentials are bound to (RFC 6454).
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public var scheme: String
    /// The host, lowercased.
    public var host: String
    /// The port, the scheme's default when the URL names none.
    public var port: Int

    /// The origin of `url`; nil when it has no host or an unknown scheme without a port.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        guard let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// Header fields in order, with their names as written; lookups ignore case.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    public private(set) var fields: [(name: String, value: String)] = []

    /// Names that always carry credentials.
    static let alwaysCredentials: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// No headers.
    public init() {}

    /// Headers in the order written: `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of `name` (any case); setting replaces every field of that name, nil removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            let matches = { (field: (name: String, value: String)) in field.name.caseInsensitiveEquals(name) }
            guard let newValue else { fields.removeAll(where: matches); return }
            guard let first = fields.firstIndex(where: matches) else { fields.append((name, newValue)); return }
            fields[first].value = newValue
            fields = fields.enumerated().filter { $0.offset <= first || !matches($0.element) }.map(\.element)
        }
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool { fields.contains { $0.name.caseInsensitiveEquals(name) } }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// Whether both hold the same fields in the same order.
    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { Self.lower($0) == Self.lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
}
