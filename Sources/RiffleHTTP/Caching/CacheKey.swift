import Foundation

/// What identifies a stored response: a SHA-256 of the method, the canonical URL, the body (POST and
/// the like) and the credentials (`Authorization`, `Cookie` and the request's `credentialHeaders`), so two
/// users' tokens never share an entry and only a one-way digest of a token ever reaches the disk.
///
/// Headers named by the response's `Vary` are checked separately (`varyFingerprint`), since they are
/// known only once a response exists.
package struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// 64 hex digits; also the stem of the entry's body file name.
    package let id: String

    package init(_ request: HTTPRequest) {
        var material = request.method.rawValue + "\n" + URLCanonicalizer.canonical(request.url)
        if let body = request.body, !body.isEmpty { material += "\nbody:" + SHA256.hex(body) }
        // Every credential the request carries, as a digest: another token is another entry.
        let credentials = request.headers.filter { request.isCredential($0.name) }
            .map { "\n\($0.name.lowercased()):" + SHA256.hex($0.value) }.sorted()
        material += credentials.joined()
        id = SHA256.hex(material)
    }

    package init(id: String) { self.id = id }

    package var description: String { String(id.prefix(12)) }

    /// A digest of the request's values for the header names in a response's `Vary` ("" when it has none).
    package static func varyFingerprint(vary: String?, request: HTTPRequest) -> String {
        guard let vary, !vary.isEmpty else { return "" }
        let names = vary.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
        let material = names.map { "\($0):\(request.headers[$0] ?? "")" }.joined(separator: "\n")
        return SHA256.hex(material)
    }

    /// The key identical requests in flight share: requests share a transfer only when every header
    /// matches too, since a `Vary`ing server could answer two requests with one cache key differently
    /// (another `Accept-Language`, say). `key`: the request's cache key when the caller has it already.
    package static func flight(_ request: HTTPRequest, key: CacheKey? = nil) -> CacheKey {
        let headers = request.headers.map { "\($0.name.lowercased()):\($0.value)" }.sorted()
        return CacheKey(id: (key ?? CacheKey(request)).id + ":" + SHA256.hex(headers.joined(separator: "\n")))
    }
}
