import CCurl
import Foundation
import Synchronization

/// The transport for every URL: libcurl's multi interface, driven from one I/O thread.
///
/// - Connections are kept alive and reused per host; HTTPS servers that offer HTTP/2 get it, and
///   concurrent requests to one host share its connection.
/// - `Accept-Encoding` offers what libcurl decodes (gzip, deflate, br); bodies arrive decoded.
/// - Proxies come from `http_proxy`, `https_proxy` and `no_proxy`, as curl reads them.
/// - Redirects are followed here, at most `maxRedirects`, to `http` and `https` only; credentials
///   (`Authorization`, `Cookie` and the request's `credentialHeaders`) are dropped on the way to another
///   origin, and that is logged once per pair of origins.
/// - Limits instead of traps: a body over `maxBodySize` (decoded size, whatever `Content-Length`
///   says), headers over `maxHeaderSize`, a server that sends nothing for `stallTimeout` each end the
///   transfer with a one-line `RiffleError`.
///
/// libcurl is loaded the first time a request is sent (see CCurl), so a program that answers from its
/// cache never loads it.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(HTTPRequest(url: URL(string: "https://lobste.rs/hottest.json")!))
/// print(response.status, response.body.count)
/// ```
public final class CurlTransport: HTTPTransporting {
    /// Limits and defaults.
    public struct Configuration: Sendable {
        /// How long one attempt may take when the request sets no `timeout`.
        public var timeout: Duration = .seconds(30)
        /// How long connecting (DNS, TCP, TLS) may take.
        public var connectTimeout: Duration = .seconds(10)
        /// How long a transfer may go without receiving a byte before it is given up as stalled.
        public var stallTimeout: Duration = .seconds(20)
        /// The largest body accepted, after decoding.
        public var maxBodySize = 64 * 1024 * 1024
        /// The largest response head accepted (status line and every header line).
        public var maxHeaderSize = 256 * 1024
        /// Redirects followed before giving up.
        public var maxRedirects = 5
        /// Connections kept open per host.
        public var maxConnectionsPerHost = 6
        /// The CA bundle to trust; nil: `$SSL_CERT_FILE` when set, else the system's.
        public var caFile: String?
        /// `User-Agent` for requests that set none.
        public var userAgent = "RiffleKit/1.0"
        /// Told about events worth a log line (credentials held back at a redirect).
        public var log: @Sendable (String) -> Void = { _ in }

        /// The defaults, reading `SSL_CERT_FILE` from `environment`.
        public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
            caFile = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The configuration the transport was made with.
    public let configuration: Configuration
    private let engine = Mutex<CurlEngine?>(nil)
    private let loggedOrigins = Mutex<Set<String>>([])

    /// A transport with these settings; libcurl is loaded on the first request.
    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit { engine.withLock { $0?.stop() } }

    /// Sends `request` and returns the whole answer; cancelling the task cancels the transfer.
    public func send(_ request: HTTPRequest, context: TransferContext) async throws(RiffleError) -> HTTPResponse {
        var current = request
        var hopContext = context
        for _ in 0...max(0, configuration.maxRedirects) {
            try Self.check(current)
            let response = try await engineForUse().perform(current, context: hopContext)
            guard let next = try redirect(from: current, response: response) else { return response }
            current = next
            // The budget and the first hop's start are the request's; later hops just follow.
            hopContext.started = nil
        }
        throw .tooManyRedirects(host: Self.hostLabel(request.url), limit: configuration.maxRedirects)
    }

    /// The request a redirect leads to, or nil when `response` is the answer.
    private func redirect(from request: HTTPRequest, response: HTTPResponse) throws(RiffleError) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location"),
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL else { return nil }
        var next = request
        next.url = target
        // 303 always, and 301/302 after a POST, become a GET without a body, as browsers do.
        if response.status == 303 || (request.method == .post && response.status != 307 && response.status != 308) {
            if next.method != .head { next.method = .get }
            next.body = nil
            next.headers["Content-Type"] = nil
            next.headers["Content-Length"] = nil
        }
        if Origin(target) != Origin(request.url) {
            let held = next.headers.filter { request.isCredential($0.name) }.map(\.name)
            for name in held { next.headers[name] = nil }
            next.credentialHeaders = []
            if !held.isEmpty { logOnce(from: request.url, to: target, held: held) }
        }
        return next
    }

    private func logOnce(from: URL, to: URL, held: [String]) {
        let pair = "\(Origin(from).map(\.description) ?? "?") -> \(Origin(to).map(\.description) ?? "?")"
        let first = loggedOrigins.withLock { $0.insert(pair).inserted }
        if first { configuration.log("redirect to another origin (\(pair)): \(held.joined(separator: ", ")) not sent") }
    }

    /// Refuses what must not leave: another scheme, a header that would split the request.
    static func check(_ request: HTTPRequest) throws(RiffleError) {
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(RiffleError.oneLine(scheme, limit: 20)) }
        guard request.url.host?.isEmpty == false else { throw .transport("invalid URL: \(RiffleError.oneLine(request.url.absoluteString))") }
        for field in request.headers {
            let bad = { (text: String) in text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 } }
            if bad(field.name) || bad(field.value) || field.name.isEmpty || field.name.contains(":") {
                throw .invalidHeader(name: RiffleError.oneLine(field.name, limit: 40))
            }
        }
    }

    private func engineForUse() throws(RiffleError) -> CurlEngine {
        try engine.withLock { engine throws(RiffleError) -> CurlEngine in
            if let engine { return engine }
            let made = try CurlEngine(configuration)
            engine = made
            return made
        }
    }

    /// `host` or `host:port`, for messages.
    static func hostLabel(_ url: URL) -> String {
        let host = url.host ?? url.absoluteString
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
