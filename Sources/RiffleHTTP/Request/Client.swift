import Foundation

/// Sends endpoints to an API and returns their decoded answers. Immutable and `Sendable`: make one per
/// API, pass it where it is needed, and share it across tasks.
///
/// ```swift
/// struct Repo: Decodable, Sendable { var name: String }
///
/// var configuration = Client.Configuration(baseURL: URL(string: "https://api.example.com")!)
/// configuration.processors = [.queryItem("version", "1.0.0")]
/// configuration.envelope = .okResult
/// let client = Client(configuration)
///
/// let reply = try await client.send(Endpoint<[Repo]>(.get, "/repos", query: ["page": "2"]))
/// print(reply.value.count, reply.status, reply.source)
/// ```
///
/// Each `send` builds the request, runs the processors and plugins, fetches (through the cache when
/// there is one, retrying transient failures), checks status, envelope and shape, then decodes.
/// Cancelling the calling task cancels the transfer.
public final class Client: Sendable {
    /// Everything a client is built from.
    public struct Configuration: Sendable {
        /// Where `.primary` paths (and string-literal targets) go.
        public var baseURL: URL
        /// Where `.secondary` paths go, e.g. a fallback host; nil: such endpoints fail.
        public var secondaryBaseURL: URL?
        /// Applied to every request in order, unless an endpoint opts out. Those that add credentials
        /// (`RequestProcessor.isCredential`) apply only to requests for the base URLs' origins.
        public var processors: [RequestProcessor] = []
        /// Applied to every answer as it arrives, before it is checked, cached or retried.
        public var responseProcessors: [ResponseProcessor] = []
        /// Unwraps enveloped answers; nil: the body is the payload.
        public var envelope: EnvelopeRule?
        /// Decodes payloads into endpoints' `Decodable` response types when an endpoint has no
        /// `decoder` of its own; set its strategies once for an API (`.convertFromSnakeCase`, `.iso8601`)
        /// before making the client. A class: copies of a configuration share it.
        public var decoder = JSONDecoder()
        /// Retries of transient failures.
        public var retry = RetryPolicy()
        /// How long a request may take, its retries and their waits included, when its endpoint does not say.
        public var timeout: Duration = .seconds(30)
        /// Headers on every request; processors and the endpoint's own headers come after.
        public var headers: [String: String] = ["Accept": "application/json"]
        /// Names of headers that identify the user, wherever they are set (`headers`, an endpoint,
        /// a processor): each is part of the cache key as a digest, so after a new login user B is never
        /// served user A's answers, and none is carried to another origin by a redirect. `Authorization`
        /// and `Cookie` always are; these names are the common custom ones (the seeds sent `token`).
        public var credentialHeaders: Set<String> = ["token", "x-token", "access-token", "x-access-token", "x-auth-token",
                                                     "api-key", "x-api-key"]
        /// The response cache; nil: every request goes to the network.
        public var cache: (any ResponseCaching)?
        /// How long an answer counts as fresh when neither its endpoint (`maxAge`) nor the server
        /// (`Cache-Control`, `Expires`) says: 180 s, the seeds' three minutes. Within it
        /// `.returnCacheElseLoad` answers from the cache without a request; 0 asks the server every time
        /// (revalidating with the stored ETag).
        public var defaultMaxAge: TimeInterval = 180
        /// Whose cache time wins when the server's caching headers and the app's disagree: the server's
        /// (RFC 9111) unless set to `.app`, which keeps answers for `maxAge` even when the server says
        /// `no-store` or `max-age=0`. An endpoint may choose for itself.
        public var maxAgePrecedence: MaxAgePrecedence = .server
        /// Hooks around each request. Holds a `RequestLogPlugin` when `RIFFLE_LOG` names a file.
        public var plugins: [any ClientPlugin]
        /// How the client waits between retries; injectable so tests see the chosen delays.
        public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

        /// A configuration for the API at `baseURL`.
        public init(baseURL: URL, secondaryBaseURL: URL? = nil,
                    environment: [String: String] = ProcessInfo.processInfo.environment) {
            self.baseURL = baseURL
            self.secondaryBaseURL = secondaryBaseURL
            self.plugins = RequestLogPlugin.fromEnvironment(environment).map { [$0] } ?? []
        }
    }

    /// The configuration the client was built from.
    public let configuration: Configuration
    /// What sends the requests (`transport` is its package name, in Client+PackageHooks.swift).
    let sender: any HTTPTransporting
    /// Transfers in flight, which identical requests join (`Endpoint.duplicates`).
    let flights = TransferFlights()

    /// A client for `configuration`, sending through `transport` (by default a `CurlTransport` of its own;
    /// clients that share one share its connections).
    public init(_ configuration: Configuration, transport: any HTTPTransporting = CurlTransport()) {
        self.configuration = configuration
        sender = transport
    }

    /// Sends `endpoint` and returns its decoded value with the response it came from.
    /// - Throws: `RiffleError`; `.cancelled` when the calling task is cancelled.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(RiffleError) -> ClientResponse<Response> {
        try await run(endpoint, context: TransferContext(), target: nil)
    }

    /// The request `endpoint` becomes, processors applied.
    public func request<Response>(for endpoint: Endpoint<Response>) throws(RiffleError) -> HTTPRequest {
        let url = try url(for: endpoint)
        var request = HTTPRequest(endpoint.method, url: url, timeout: endpoint.timeout ?? configuration.timeout)
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) { request.headers[name] = value }
        if let body = endpoint.body {
            request.body = body.data
            request.headers["Content-Type"] = body.contentType
        }
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) { request.headers[name] = value }
        if endpoint.processing == .clientProcessors {
            let trusted = trustedOrigins.contains { $0 == request.origin }
            for processor in configuration.processors where trusted || !processor.isCredential {
                try processor.apply(to: &request)
            }
        }
        for field in request.headers where configuration.credentialHeaders.contains(where: { $0.caseInsensitiveEquals(field.name) }) {
            request.credentialHeaders.insert(field.name.lowercased())
        }
        return request
    }

    private func url<Response>(for endpoint: Endpoint<Response>) throws(RiffleError) -> URL {
        let base: URL
        let path: String
        switch endpoint.target {
        case .url(let full):
            return try Self.appending(endpoint.query, to: full)
        case .primary(let p):
            base = configuration.baseURL
            path = p
        case .secondary(let p):
            guard let secondary = configuration.secondaryBaseURL else {
                throw .transport("no secondary base URL configured for \(p)")
            }
            base = secondary
            path = p
        }
        var text = base.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += path.isEmpty || path.hasPrefix("/") ? path : "/" + path
        guard let url = URL(string: text) else { throw .transport("invalid URL: \(RiffleError.oneLine(text))") }
        return try Self.appending(endpoint.query, to: url)
    }

    private static func appending(_ query: [URLQueryItem], to url: URL) throws(RiffleError) -> URL {
        guard !query.isEmpty else { return url }
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .transport("invalid URL: \(url.absoluteString)")
        }
        // After the path's own query, left as written; a `+` in a value is encoded (a raw one is a space).
        parts.appendQueryItems(query)
        guard let result = parts.url else { throw .transport("invalid URL: \(url.absoluteString)") }
        return result
    }
}
