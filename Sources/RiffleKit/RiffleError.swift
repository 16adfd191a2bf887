import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every failure RiffleKit reports. Each case reads as one short line (`description`), which the
/// browser shows as a toast as is.
public enum RiffleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens at host:port, or the connection was reset.
    case cannotConnect(host: String, reason: String)
    /// The host name did not resolve.
    case dnsFailure(host: String)
    /// No network at all.
    case offline
    /// The server did not answer in time.
    case timedOut(host: String)
    /// The TLS handshake failed (a plain-HTTP port spoken to with https, a bad certificate...).
    case tls(host: String, reason: String)
    /// The server answered with a status outside 200...299.
    case httpStatus(code: Int, excerpt: String)
    /// The body is not JSON.
    case invalidJSON(offset: Int, reason: String)
    /// The body is JSON but holds no array of items; `keys` are the top-level keys seen.
    case noItems(keys: [String])
    /// The item array holds no objects, only `count` scalars (or arrays) of `kind` ("numbers",
    /// "strings"..., "values" when mixed) at the dotted `path` ("" for the whole response), such as
    /// Hacker News' `topstories.json`, an array of ids.
    case scalarItems(count: Int, kind: String, path: String)
    /// The body does not have the declared shape.
    case validation(path: String, expected: String, actual: String)
    /// The server answered with a failure envelope.
    case envelope(message: String)
    /// The caller cancelled.
    case cancelled
    /// A cache-only request found nothing in the cache.
    case notCached
    /// A file in the cache folder could not be read or written.
    case storage(path: String, reason: String)
    /// Anything else the transport reported.
    case transport(String)
    /// A feed header or query parameter names an environment variable that is not set (the value is
    /// never included).
    /// `usedBy`: what needs it, e.g. "Authorization header" or "api_key query parameter".
    case missingEnvironment(variable: String, usedBy: String)

    public var description: String {
        switch self {
        case .cannotConnect(let host, let reason): "could not connect to \(host) (\(reason))"
        case .dnsFailure(let host): "could not resolve \(host)"
        case .offline: "offline: no network connection"
        case .timedOut(let host): "\(host) timed out"
        case .tls(let host, let reason): "TLS failed with \(host) (\(reason))"
        case .httpStatus(let code, let excerpt):
            "HTTP \(code) \(HTTPStatus.reason(code))" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .invalidJSON(let offset, let reason): "invalid JSON at byte \(offset): \(reason)"
        case .noItems(let keys):
            keys.isEmpty ? "no list of items in the response"
                : "no list of items in the response (top-level keys: \(keys.prefix(8).map { Self.visible($0, limit: 40) }.joined(separator: ", ")))"
        case .scalarItems(let count, let kind, let path):
            "an array of \(count) \(kind)\(path.isEmpty ? "" : " at \(Self.visible(path, limit: 60))"), no objects to list"
        case .validation(let path, let expected, let actual): "unexpected JSON at \(path): expected \(expected), got \(actual)"
        case .envelope(let message): "server error: \(message)"
        case .cancelled: "cancelled"
        case .notCached: "not cached"
        case .storage(let path, let reason): "cache file \(path): \(reason)"
        case .transport(let message): message
        case .missingEnvironment(let variable, let usedBy):
            "environment variable \(variable) is not set (the feed's \(usedBy) uses it)"
        }
    }
}

extension RiffleError {
    /// True when the server could not be reached at all (as opposed to answering badly): the
    /// browser then says "offline".
    public var isConnectivityFailure: Bool {
        switch self {
        case .cannotConnect, .dnsFailure, .offline, .timedOut, .tls: true
        default: false
        }
    }

    /// Maps a Foundation/URLSession error for a request to `url` into a `RiffleError`.
    public init(_ error: any Error, url: URL) {
        if let riffle = error as? RiffleError { self = riffle; return }
        if error is CancellationError { self = .cancelled; return }
        let host = url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
        guard let urlError = error as? URLError else { self = .transport(Self.oneLine(String(describing: error))); return }
        switch urlError.code {
        case .cancelled: self = .cancelled
        case .cannotConnectToHost:
            self = .cannotConnect(host: host, reason: "connection refused")
        case .networkConnectionLost: self = .cannotConnect(host: host, reason: Self.connectionLostReason)
        case .cannotFindHost, .dnsLookupFailed: self = .dnsFailure(host: url.host ?? host)
        case .notConnectedToInternet: self = .offline
        case .timedOut: self = .timedOut(host: host)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            self = .tls(host: host, reason: "secure connection failed")
        case .badServerResponse: self = .cannotConnect(host: host, reason: "bad server response")
        default:
            // libcurl reports TLS and reset failures as code -1 with its own text, e.g.
            // "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number" (https to a plain port).
            let text = Self.oneLine(urlError.localizedDescription)
            if text.contains("SSL") || text.contains("TLS") {
                self = .tls(host: host, reason: text)
            } else if text.localizedCaseInsensitiveContains("connection reset") {
                self = .cannotConnect(host: host, reason: Self.connectionLostReason)
            } else {
                self = .transport(text)
            }
        }
    }

    /// The `cannotConnect` reason for a connection that broke mid-request (retried as transient).
    public static let connectionLostReason = "connection lost"

    /// Server text (a key, a path) shown as it is but safe on a terminal: C0 controls as their
    /// visible pictures (ESC as ␛), DEL as ␡, C1 controls, bidirectional overrides and line or
    /// paragraph separators as U+FFFD; cut to `limit` characters.
    static func visible(_ text: String, limit: Int) -> String {
        var out = String.UnicodeScalarView()
        for (n, scalar) in text.unicodeScalars.enumerated() {
            if n == limit { out.append("…"); break }
            let v = scalar.value
            switch v {
            case 0..<0x20: out.append(Unicode.Scalar(0x2400 + v)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Collapses text to one printable line (error text may quote a server).
    static func oneLine(_ text: String, limit: Int = 120) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if out.unicodeScalars.count >= limit { out += "…"; break }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                if !out.hasSuffix(" ") { out += " " }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out.trimmingCharacters(in: .whitespaces)
    }
}

/// Reason phrases for the HTTP status codes a feed is likely to see.
enum HTTPStatus {
    static func reason(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
