import Foundation

/// Rewrites a URL so that spellings of the same resource share one cache entry: scheme and host
/// lowercased, the default port dropped, an empty path made `/`, the fragment dropped, query parameters
/// sorted by name (duplicates keep their order, since `a=1&a=2` and `a=2&a=1` may differ to a server)
/// and their percent-encoding normalised. User info is dropped: it is a credential.
enum URLCanonicalizer {
    /// Characters left as they are in a query name or value (RFC 3986 unreserved); the rest is %XX.
    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func canonical(_ url: URL) -> String {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        let scheme = (parts.scheme ?? "").lowercased()
        // The host as written, from the URL: URLComponents' host passes through IDNA, whose set-up
        // loads ICU's Unicode data into every process that makes a request (a megabyte resident),
        // ASCII hosts included. An IPv6 literal keeps its brackets.
        let host = url.absoluteURL.host(percentEncoded: true) ?? ""
        // Bytes, not Foundation's `contains`, which searched as text (several times the cost of a page's key).
        let literal = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[")
        var text = scheme + "://" + (literal ? "[" + host + "]" : host).lowercased()
        if let port = parts.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            text += ":\(port)"
        }
        let path = parts.percentEncodedPath
        text += path.isEmpty ? "/" : path
        if let query = parts.percentEncodedQuery, !query.isEmpty {
            let items = query.split(separator: "&", omittingEmptySubsequences: true).enumerated().map { index, pair in
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = normalise(halves[0])
                let value = halves.count > 1 ? "=" + normalise(halves[1]) : ""
                return (name: name, value: value, index: index)
            }
            let sorted = items.sorted { ($0.name, $0.index) < ($1.name, $1.index) }
            text += "?" + sorted.map { $0.name + $0.value }.joined(separator: "&")
        }
        return text
    }

    private static func isUnreservedOrPlus(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"): true
        default: false
        }
    }

    /// Decodes then re-encodes, so `%7e`, `%7E` and `~` read the same. A raw `+` stays as it is
    /// (whether it means a space is the server's business) and an escaped one, `%2B`, stays escaped:
    /// `q=c%2B%2B` asks for "c++" where `q=c++` asks, to most servers, for "c  ".
    private static func normalise(_ part: Substring) -> String {
        // Already canonical when every byte is unreserved ASCII or "+" (no escapes): most names and values.
        if part.utf8.allSatisfy(isUnreservedOrPlus) { return String(part) }
        // Each run between raw `+`s alone, so a decoded `+` is encoded again.
        return part.split(separator: "+", omittingEmptySubsequences: false).map(normaliseEscapes).joined(separator: "+")
    }

    /// `normalise` of a part without a raw `+`.
    private static func normaliseEscapes(_ part: Substring) -> String {
        let decoded = String(part).removingPercentEncoding ?? String(part)
        var out = ""
        for scalar in decoded.unicodeScalars {
            if unreserved.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += String(format: "%%%02X", byte) }
            }
        }
        return out
    }
}
