import CCurl
import RiffleJSON
import Foundation

/// Every failure of a request: the transport's, the HTTP answer's, the client pipeline's and the cache's
/// (RiffleKit's feeds add theirs in `FeedError`, which wraps this). Each case reads as one short line
/// (`description`), which the browser shows as a toast as is.
public enum RiffleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens at host:port, nothing answered the connection in time (`noAnswerReason`), or
    /// the connection broke (`connectionLostReason`).
    case cannotConnect(host: String, reason: String)
    /// The host name did not resolve.
    case dnsFailure(host: String)
    /// No network at all.
    case offline
    /// The server took the request but did not answer in time (the request's whole budget, retries
    /// included).
    case timedOut(host: String)
    /// The server stopped sending for `seconds` in the middle of an answer.
    case stalled(host: String, seconds: Int)
    /// An answer that began and did not arrive whole: `received` bytes of it (of the `expected` its
    /// `Content-Length` declared, when it did), then `ending`. Counts are as sent, before decoding,
    /// but for `.midJSON`, which counts the decoded body.
    case cutShort(host: String, received: Int, expected: Int?, ending: Ending)
    /// The TLS handshake failed (a plain-HTTP port spoken to with https, a bad certificate...).
    case tls(host: String, reason: String)
    /// The server answered with a status outside 200...299.
    case httpStatus(code: Int, excerpt: String)
    /// The body is not JSON.
    case invalidJSON(offset: Int, reason: String)
    /// The body does not have the declared shape.
    case validation(path: String, expected: String, actual: String)
    /// The server answered with a failure envelope.
    case envelope(message: String)
    /// The caller cancelled.
    case cancelled
    /// A cache-only request found nothing in the cache.
    case notCached
    /// An identical request was already in flight and the endpoint drops duplicates
    /// (`Endpoint.duplicates = .drop`): the first one's answer is the one that counts.
    case duplicate
    /// A file in the cache folder could not be read or written.
    case storage(path: String, reason: String)
    /// The server's answer is not HTTP that can be read (a malformed head, a body that does not decode).
    case badResponse(host: String, reason: String)
    /// An answer over a limit: `what` is "response body" or "response headers", `limit` in bytes.
    case tooLarge(what: String, limit: Int)
    /// More redirects than allowed (a loop, most likely).
    case tooManyRedirects(host: String, limit: Int)
    /// A URL (a next link, a cursor, a redirect) with a scheme other than http and https.
    case unsupportedScheme(String)
    /// A header that cannot be sent as it is (a line break or NUL in its name or value); the value is never shown.
    case invalidHeader(name: String)
    /// Anything else the transport reported.
    case transport(String)
    /// The caller's own code in the pipeline (a request processor, an endpoint's decoding) failed with
    /// an error of its own, carried through the client, the cache and the plugins unchanged.
    case caller(CallerError)

    /// How an answer that began ended before its end (`cutShort`).
    public enum Ending: Sendable, Equatable {
        /// The server closed the connection.
        case closed
        /// The request's time ran out while the answer came.
        case timedOut
        /// Nothing came for `seconds`.
        case stalled(seconds: Int)
        /// The transfer ended without fault, but its JSON stops in the middle: nothing marked the end
        /// (a compressed stream cut where the connection's close ends the body, which libcurl does not check).
        case midJSON
    }

    /// One line for a person: what failed and where, never a credential.
    public var description: String {
        switch self {
        // A connection made and then broken (a body shorter than announced, a reset mid-answer): the
        // server is there, so not "could not connect".
        case .cannotConnect(let host, Self.connectionLostReason): "lost the connection to \(host)"
        case .cannotConnect(let host, let reason): "could not connect to \(host) (\(reason))"
        case .dnsFailure(let host): "could not resolve \(host)"
        case .offline: "offline: no network connection"
        case .timedOut(let host): "\(host) timed out"
        case .stalled(let host, let seconds): "\(host) stopped sending (nothing for \(seconds) s)"
        case .cutShort(let host, let received, let expected, let ending):
            switch ending {
            case .closed: "the answer from \(host) was cut short: \(Self.count(received, of: expected)) arrived"
            case .timedOut: "\(host) timed out after \(Self.count(received, of: expected)) of the answer"
            case .stalled(let seconds): "\(host) stopped sending (nothing for \(seconds) s) after \(Self.count(received, of: expected))"
            case .midJSON: "the answer from \(host) was cut short: its JSON stops after \(Self.count(received, of: expected))"
            }
        case .tls(let host, let reason): "TLS failed with \(host) (\(reason))"
        case .httpStatus(let code, let excerpt):
            // A status without a standard phrase (Cloudflare's 520-527, a server's own 299) reads "HTTP 520: ...".
            "HTTP \(code)" + (HTTPStatus.reason(code).map { " \($0)" } ?? "") + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .invalidJSON(let offset, let reason): "invalid JSON at byte \(offset): \(reason)"
        case .validation(let path, let expected, let actual): "unexpected JSON at \(path): expected \(expected), got \(actual)"
        case .envelope(let message): "server error: \(message)"
        case .cancelled: "cancelled"
        case .notCached: "not cached"
        case .duplicate: "already sent, waiting for its answer"
        case .storage(let path, let reason): "cache file \(path): \(reason)"
        case .badResponse(let host, let reason): "bad answer from \(host): \(reason)"
        case .tooLarge(let what, let limit): "the \(what) went over the \(Self.size(limit)) limit"
        case .tooManyRedirects(let host, let limit): "\(host): more than \(limit) redirects"
        case .unsupportedScheme(let scheme): "unsupported URL scheme '\(scheme)' (only http and https are followed)"
        case .invalidHeader(let name): "header \(name) holds a line break or NUL and cannot be sent"
        case .transport(let message): message
        case .caller(let error): error.description
        }
    }
}

extension RiffleError {
    /// True when no answer came (as opposed to a bad answer): the host could not be reached, did not
    /// answer in time, stopped sending, or the secure connection failed. A retry or a stored copy may
    /// help; whether to call it "offline" is `isOffline`.
    public var isConnectivityFailure: Bool {
        switch self {
        case .cannotConnect, .dnsFailure, .offline, .timedOut, .stalled, .tls: true
        case .cutShort(_, _, _, let ending): ending != .midJSON
        default: false
        }
    }

    /// True when the network or the host could not be reached at all (no route, no name, a connection
    /// refused or lost): what a browser calls "offline". A timeout or a stall is not, nor a connection
    /// nobody answered in time (`noAnswerReason`): the server may well be there, only slow or swamped.
    public var isOffline: Bool {
        switch self {
        case .cannotConnect(_, let reason): reason != Self.noAnswerReason
        case .dnsFailure, .offline: true
        default: false
        }
    }

    /// This error with `transform` applied to every text it carries (server text, URLs, reasons);
    /// numbers and the case stay. How secrets are taken out of messages (`SecretRedactor`).
    package func mappingText(_ transform: (String) -> String) -> RiffleError {
        switch self {
        case .cannotConnect(let host, let reason): .cannotConnect(host: transform(host), reason: transform(reason))
        case .dnsFailure(let host): .dnsFailure(host: transform(host))
        case .timedOut(let host): .timedOut(host: transform(host))
        case .stalled(let host, let seconds): .stalled(host: transform(host), seconds: seconds)
        case .cutShort(let host, let received, let expected, let ending):
            .cutShort(host: transform(host), received: received, expected: expected, ending: ending)
        case .tls(let host, let reason): .tls(host: transform(host), reason: transform(reason))
        case .httpStatus(let code, let excerpt): .httpStatus(code: code, excerpt: transform(excerpt))
        case .invalidJSON(let offset, let reason): .invalidJSON(offset: offset, reason: transform(reason))
        case .validation(let path, let expected, let actual):
            .validation(path: transform(path), expected: transform(expected), actual: transform(actual))
        case .envelope(let message): .envelope(message: transform(message))
        case .storage(let path, let reason): .storage(path: transform(path), reason: transform(reason))
        case .badResponse(let host, let reason): .badResponse(host: transform(host), reason: transform(reason))
        case .tooManyRedirects(let host, let limit): .tooManyRedirects(host: transform(host), limit: limit)
        case .unsupportedScheme(let scheme): .unsupportedScheme(transform(scheme))
        case .invalidHeader(let name): .invalidHeader(name: transform(name))
        case .transport(let message): .transport(transform(message))
        // A caller's error carries its own words, which the caller redacts as it needs.
        case .offline, .cancelled, .notCached, .tooLarge, .duplicate, .caller: self
        }
    }

    /// `error` as a `RiffleError`: itself, `.cancelled` for a `CancellationError`, else `.transport` with its text.
    package init(wrapping error: any Error) {
        if let riffle = error as? RiffleError { self = riffle }
        else if error is CancellationError { self = .cancelled }
        else { self = .transport(Self.oneLine(String(describing: error))) }
    }

    /// A libcurl failure (`code` a CURLcode, `osError` the errno libcurl saw) for a request to `url`;
    /// `sent` tells whether any of the request went out, which tells a timeout while connecting
    /// (`cannotConnect`, no answer) from one while waiting for the answer (`timedOut`).
    static func curl(code: Int32, osError: Int32, detail: String, url: URL, sent: Bool = true) -> RiffleError {
        let host = CurlTransport.hostLabel(url)
        let detail = oneLine(detail)
        switch code {
        case 1:
            // The scheme was checked before sending: for http(s) this is an answer that is not HTTP at all
            // (libcurl's "HTTP/0.9 not allowed"), which is what a reused connection holding the rest of a
            // previous, over-long answer gives. A fresh connection cures it, as for a lost one.
            let scheme = url.scheme?.lowercased() ?? ""
            if scheme == "http" || scheme == "https" { return .cannotConnect(host: host, reason: connectionLostReason) }
            return .unsupportedScheme(oneLine(scheme, limit: 20))
        case 3: return .transport("invalid URL: \(oneLine(url.absoluteString))")
        case 5: return .dnsFailure(host: "the proxy")
        case 6: return .dnsFailure(host: url.host ?? host)
        case 7:
            switch osError {
            case 101, 113: return .offline  // ENETUNREACH, EHOSTUNREACH: no route
            case 111: return .cannotConnect(host: host, reason: "connection refused")
            case 110: return .cannotConnect(host: host, reason: noAnswerReason)  // ETIMEDOUT while connecting
            default: return .cannotConnect(host: host, reason: detail.isEmpty ? "connection failed" : detail)
            }
        case 28: return sent ? .timedOut(host: host) : .cannotConnect(host: host, reason: noAnswerReason)
        // A chunked body whose chunk sizes do not read (libcurl: "Malformed encoding found in
        // chunked-encoding", "Illegal or missing hexadecimal sequence..."): the server's answer, and it
        // would come so again. A reset or a TLS read failure is the same code with other words: lost.
        case 56 where detail.range(of: "chunk", options: .caseInsensitive) != nil:
            return .badResponse(host: host, reason: brokenChunksReason)
        case 16, 18, 52, 55, 56, 92:
            // HTTP/2 framing, a body shorter than announced, an empty answer, a reset: the connection broke.
            return .cannotConnect(host: host, reason: connectionLostReason)
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:
            return .tls(host: host, reason: detail.isEmpty ? "secure connection failed" : detail)
        case 8: return .badResponse(host: host, reason: detail.isEmpty ? "not an HTTP answer" : detail)
        case 61: return .badResponse(host: host, reason: undecodableReason)
        case 97: return .cannotConnect(host: "the proxy", reason: detail.isEmpty ? "proxy handshake failed" : detail)
        case 42: return .cancelled
        default:
            // What libcurl wrote for this transfer, else its words for the code: never a bare number.
            return .transport("\(host): " + (detail.isEmpty ? curlWords(code) : detail))
        }
    }

    /// libcurl's description of a CURLcode ("Out of memory"), with the code for a bug report. A libcurl
    /// older than the code has no words for it ("Unknown error"): then ours.
    static func curlWords(_ code: Int32) -> String {
        var words = rc_easy_strerror(code).map { oneLine(String(cString: $0)) } ?? ""
        if words.isEmpty || words == "Unknown error" {
            switch code {
            case Int32(RC_CURLE_TOO_LARGE): words = "an answer went over one of libcurl's own limits"
            case 101: words = "the server would not take the encrypted client hello libcurl required"
            default: words = "libcurl failed without saying why"
            }
        }
        return words + " (CURLcode \(code))"
    }

    /// The `badResponse` reason for a body its `Content-Encoding` does not decode.
    static let undecodableReason = "the body's Content-Encoding does not decode"

    /// The `badResponse` reason for a chunked body whose chunks do not read.
    static let brokenChunksReason = "the body's chunked encoding does not read"

    /// The `cannotConnect` reason for a connection that broke mid-request (retried as transient).
    public static let connectionLostReason = "connection lost"

    /// The `cannotConnect` reason for a connection that was never made: nothing answered within the
    /// connect timeout (a host that drops packets, a firewall, a machine that is off). Not retried: the
    /// kernel has already sent its SYN several times over, and another try costs the whole timeout again.
    public static let noAnswerReason = "no answer"

    /// Server text (a key, a path) shown as it is but safe on a terminal: C0 controls as their
    /// visible pictures (ESC as ␛), DEL as ␡, C1 controls, bidirectional overrides and line or
    /// paragraph separators as U+FFFD; cut to `limit` characters.
    package static func visible(_ text: String, limit: Int) -> String {
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

    /// The start of a body as one printable line, for `httpStatus` errors.
    package static func excerpt(_ body: Data, limit: Int = 100) -> String {
        oneLine(String(decoding: body.prefix(limit * 4), as: UTF8.self), limit: limit)
    }

    /// `body` failed to parse as JSON (`error`): the offset and reason, and what the body holds there
    /// as one printable line ("unexpected character near "<!DOCTYPE html><html>…""), so a web page, a
    /// login form or a proxy's notice answering in place of JSON says what it is; `hint` goes last.
    ///
    /// A body from `url` whose JSON stops in the middle (the parser ran out of bytes) is `cutShort`:
    /// the answer ended too soon, whatever ended it.
    package static func invalidJSON(_ error: JSONParser.Error, in body: Data, from url: URL? = nil, hint: String = "") -> RiffleError {
        if let url, error.offset >= body.count, body.contains(where: { ![9, 10, 13, 32].contains($0) }) {
            return .cutShort(host: CurlTransport.hostLabel(url), received: body.count, expected: nil, ending: .midJSON)
        }
        let from = body.index(body.startIndex, offsetBy: min(max(error.offset, 0), body.count))
        let near = excerpt(body[from...], limit: 40)
        return .invalidJSON(offset: error.offset, reason: error.reason + (near.isEmpty ? "" : " near \"\(near)\"") + hint)
    }

    /// "1 byte", "3080 bytes", or with the whole: "3080 of 6000 bytes".
    static func count(_ bytes: Int, of whole: Int?) -> String {
        if let whole { return "\(bytes) of \(whole) bytes" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// `bytes` as "64 MiB", "256 KiB" or "900 bytes".
    package static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// Collapses text to one printable line (error text may quote a server): a terminal's escape
    /// sequences are left out whole (`ESC[31mNot found` reads "Not found", not "[31mNot found"), as
    /// a terminal would not show them; other controls and line breaks become one space.
    static func oneLine(_ text: String, limit: Int = 120) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var count = 0
        var index = 0
        while index < scalars.count {
            if count >= limit { out.append("…"); break }
            let v = scalars[index].value
            if v == 0x1B || [0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F].contains(v) {
                index = afterEscapeSequence(scalars, at: index)
            } else if v < 0x20 || (0x7F...0x9F).contains(v) {
                if let last = out.last, last != " " { out.append(" "); count += 1 }
                index += 1
            } else {
                out.append(scalars[index])
                count += 1
                index += 1
            }
        }
        return String(out).trimmingCharacters(in: .whitespaces)
    }

    /// The index just past the escape sequence starting at `start` (ESC, or an 8-bit CSI, OSC, DCS,
    /// SOS, PM or APC), as ECMA-48 ends it: a CSI at its final byte, a string (OSC, DCS...) at BEL or
    /// ST (`ESC \`, U+009C), another ESC sequence at its final character; an unfinished one at the end of
    /// the text or at the first character that cannot be part of it.
    static func afterEscapeSequence(_ scalars: [Unicode.Scalar], at start: Int) -> Int {
        var index = start + 1
        var kind = scalars[start].value
        if kind == 0x1B {
            guard index < scalars.count else { return index }
            switch scalars[index].value {
            case 0x5B: kind = 0x9B  // ESC [ : CSI
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F: kind = 0x9D  // ESC ] P X ^ _ : OSC, DCS, SOS, PM, APC
            default:
                // ESC, intermediates (space to /), one final character (0 to ~): `ESC c`, `ESC ( B`.
                while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
                return index < scalars.count && (0x30...0x7E).contains(scalars[index].value) ? index + 1 : index
            }
            index += 1
        }
        if kind == 0x9B {
            // Parameters and intermediates (0x20 to 0x3F), then one final byte (@ to ~).
            while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) { index += 1 }
            return index < scalars.count && (0x40...0x7E).contains(scalars[index].value) ? index + 1 : index
        }
        // A control string: to BEL or ST; an ESC that does not start ST ends it and starts a sequence of its own.
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x1B: return index + 1 < scalars.count && scalars[index + 1].value == 0x5C ? index + 2 : index
            default: index += 1
            }
        }
        return index
    }
}
