import Foundation
import RiffleJSON

/// One call to an API: where it goes, what it sends, how its answer is checked, and the type the answer
/// decodes to.
///
/// Define endpoints once, next to the types they return, and pass them to `Client.send(_:)`:
///
/// ```swift
/// struct Repo: Decodable, Sendable { var name: String; var stars: Int }
///
/// extension Endpoint where Response == [Repo] {
///     static func repos(of user: String) -> Self {
///         Endpoint(.get, "/users/\(user)/repos", query: ["per_page": "30"],
///                  shape: .array(.object(["name": .string, "stars": .number])))
///     }
/// }
///
/// let repos = try await client.send(.repos(of: "apple")).value
/// ```
public struct Endpoint<Response: Sendable>: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// Where the request goes.
    public var target: Target
    /// Query parameters, appended in order after any the target already has.
    public var query: [URLQueryItem]
    /// The body, if any; it sets `Content-Type` unless `headers` does.
    public var body: RequestBody?
    /// Header fields; these win over the body's `Content-Type` and the client's processors.
    public var headers: [String: String]
    /// How long the request may take, retries and their waits included; nil: the client's default.
    public var timeout: Duration?
    /// How the client's cache is used (ignored when the client has none).
    public var cachePolicy: CachePolicy
    /// How long, in seconds, a cached answer counts as fresh when the server's headers say nothing
    /// (or always, under `.app` precedence); nil: the client's `defaultMaxAge`.
    public var maxAge: TimeInterval?
    /// Whose cache time wins over the other's; nil: the client's `maxAgePrecedence`.
    public var maxAgePrecedence: MaxAgePrecedence?
    /// Which methods' answers the cache keeps: GET only, unless `.anyMethod` asks for this endpoint's.
    public var cacheEligibility: CacheEligibility = .getOnly
    /// The JSON shape the payload must have; nil: anything.
    public var shape: JSONShape?
    /// Whether the client's request processors apply.
    public var processing: Processing = .clientProcessors
    /// Which envelope rule unwraps the answer.
    public var envelope: EnvelopeUsage = .client
    /// Whether transient failures are retried.
    public var retry: RetryUsage = .whenIdempotent
    /// A limit this endpoint's transfers share with others (a serial queue is `ConcurrencyLimit(1)`);
    /// nil: none beyond the transport's own.
    public var limit: ConcurrencyLimit?
    /// What a call does while an identical one (method, URL, headers and body) is in flight.
    public var duplicates: DuplicateHandling = .automatic
    /// A name for plugins and logs ("login", "history"); nil: none.
    public var name: String?
    /// Labels for plugins, e.g. `[.silent]` to keep a loading indicator hidden for this endpoint.
    public var tags: Set<RequestTag> = []
    /// Runs on the payload after the envelope is removed and the shape checked, before decoding.
    public var transform: (@Sendable (JSONValue) throws(RiffleError) -> JSONValue)?
    /// The decoder that turns the payload into `Response` (its key and date strategies, e.g.
    /// `.convertFromSnakeCase`, `.iso8601`); nil: the client's `Configuration.decoder`. Not used when
    /// `Response` is `JSONValue` (the payload is the value) nor by `Endpoint.bytes`.
    public var decoder: JSONDecoder?
    var decoding: Decoding<Response>

    /// Where a request goes. A string literal is a path against the primary base URL, and values
    /// interpolated into it are percent-encoded as one path segment each, so
    /// `Endpoint(.get, "/users/\(name)/repos")` stays on that path whatever `name` holds (`a/b` is sent
    /// as `a%2Fb`, `日本` as `%E6%97%A5%E6%9C%AC`); `\(raw: text)` puts text in as it is.
    public enum Target: Sendable, Equatable, ExpressibleByStringInterpolation {
        /// A path against the client's primary base URL. A string literal means this.
        case primary(String)
        /// A path against the client's secondary base URL (e.g. a fallback host).
        case secondary(String)
        /// A full URL; the base URLs are not used.
        case url(URL)

        /// A path against the primary base URL, as written.
        public init(stringLiteral path: String) { self = .primary(path) }
        /// A path against the primary base URL, each interpolated value one percent-encoded segment.
        public init(stringInterpolation path: PathInterpolation) { self = .primary(path.path) }

        /// Builds a path from a string literal with interpolated values.
        public struct PathInterpolation: StringInterpolationProtocol {
            var path = ""

            /// An empty path, with room for the literal and the values.
            public init(literalCapacity: Int, interpolationCount: Int) { path.reserveCapacity(literalCapacity + 16 * interpolationCount) }
            /// The literal text, as written.
            public mutating func appendLiteral(_ literal: String) { path += literal }
            /// `value` as one path segment: everything but RFC 3986's unreserved characters, sub-delimiters,
            /// `:` and `@` percent-encoded (`/`, `?`, `#` and `%` included).
            public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
                path += value.description.addingPercentEncoding(withAllowedCharacters: pathSegmentCharacters) ?? ""
            }
            /// `text` as it is, e.g. a prefix holding slashes: `"/\(raw: version)/items"`.
            public mutating func appendInterpolation(raw text: String) { path += text }
        }
    }

    /// Whether the client's request processors apply to an endpoint.
    public enum Processing: Sendable, Equatable {
        /// Run them in order (the default).
        case clientProcessors
        /// Skip them, e.g. for a call to a third-party host that must not see the API key.
        case none
    }

    /// Which envelope rule unwraps an endpoint's answer.
    public enum EnvelopeUsage: Sendable {
        /// The client's rule, if it has one (the default).
        case client
        /// None: the whole body is the payload.
        case none
        /// This rule instead of the client's.
        case rule(EnvelopeRule)
    }

    /// What a call does while an identical one is in flight (same method, URL, headers and body).
    public enum DuplicateHandling: Sendable, Equatable {
        /// GET and HEAD join it; other methods are sent again (the default).
        case automatic
        /// Join it whatever the method: five taps on "send" make one POST, and all five get its answer.
        case join
        /// Fail at once with `RiffleError.duplicate`, leaving the first to finish.
        case drop
        /// Send it again whatever the method.
        case send
    }

    /// Which answers of an endpoint the client's cache keeps.
    public enum CacheEligibility: Sendable, Equatable {
        /// GET answers only (the default): other methods change things, their answers describe one call.
        case getOnly
        /// Any method's, keyed by method, URL and body: for an API whose queries are POSTs
        /// (`{"page": 2, "rows": 20}`), which the seeds cached too.
        case anyMethod
    }

    /// Whether an endpoint's transient failures are retried.
    public enum RetryUsage: Sendable, Equatable {
        /// Retry when the method is idempotent: never for POST and PATCH (the default).
        case whenIdempotent
        /// Retry whatever the method, for a POST the server de-duplicates.
        case always
        /// Never retry.
        case never
    }

    package init(method: HTTPMethod, target: Target, query: [URLQueryItem], body: RequestBody?, headers: [String: String],
         timeout: Duration?, cachePolicy: CachePolicy, maxAge: TimeInterval?, shape: JSONShape?, decoding: Decoding<Response>) {
        self.method = method
        self.target = target
        self.query = query
        self.body = body
        self.headers = headers
        self.timeout = timeout
        self.cachePolicy = cachePolicy
        self.maxAge = maxAge
        self.shape = shape
        self.decoding = decoding
    }

    /// A copy whose payload goes through `transform` before decoding, e.g. to take `count` out of it:
    /// `.transformingPayload { $0["count"] ?? .null }`.
    public func transformingPayload(_ transform: @escaping @Sendable (JSONValue) throws(RiffleError) -> JSONValue) -> Self {
        var copy = self
        copy.transform = transform
        return copy
    }
}

/// What a value interpolated into an endpoint's path may keep as it is: RFC 3986's `pchar` without `%`.
private let pathSegmentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")

/// How an endpoint turns an answer into its response type.
package enum Decoding<Response: Sendable>: Sendable {
    /// From the JSON payload; the `Data` is the payload's exact bytes when it is the whole body, the
    /// decoder the endpoint's (else the client's).
    case json(@Sendable (JSONValue, Data?, JSONDecoder) throws(RiffleError) -> Response)
    /// From the raw body, with no JSON parsing, envelope or shape.
    case raw(@Sendable (Data) throws(RiffleError) -> Response)
}
