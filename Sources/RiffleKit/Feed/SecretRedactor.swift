import Foundation

/// Takes a feed's secrets out of what a server sends back (headers, body, the answer's URL) and out of
/// error messages, in every spelling a server or a library may echo them in, before anything of it is
/// shown, logged or stored.
///
/// A secret is found spelled raw, percent-encoded byte by byte in either case (`%2F`, `%2f`, or only
/// some bytes), JSON-escaped (`abc\/def`, `\"`), `\u`-escaped (`\u0061`, surrogate pairs) or with `+`
/// for a space, in any mix. Each is replaced by its `${NAME}` reference (percent-encoded where the
/// echo was, or where it sits in a URL), or by `***` for a key of the feed URL's own, which a URL
/// holds as it is (`*` is a sub-delimiter), so every echo of it reads `apiKey=***` as riffle's
/// listings do, never `apiKey=%2A%2A%2A`.
///
/// A body that does not hold a secret is returned as it is. A body that is valid JSON stays valid
/// JSON: only the text of its strings is rewritten (never across an escape), and a number that is a
/// secret whole becomes the reference as a string; digits inside a longer number are not an echo.
///
/// For instance, with the secret `tok-123` named `${TOKEN}`, `Bearer tok-123` becomes
/// `Bearer ${TOKEN}` and `{"q":"tok\u002d123"}` becomes `{"q":"${TOKEN}"}` (tested in
/// `SecretRedactorTests`).
struct SecretRedactor: Sendable {
    /// One secret: its value and what replaces it.
    struct Secret: Sendable, Equatable {
        var value: String
        /// `${NAME}`.
        var reference: String
        /// Whether the value is a query parameter's whole value (`apiKey=abc`): a spelling followed by
        /// more of a value (`apiKey=abcdef`) is another value, not this one.
        var isWholeValue = false
    }

    private struct Prepared: Sendable {
        /// The value's scalars, each with its UTF-8 bytes.
        var scalars: [(value: UInt32, utf8: [UInt8])]
        var reference: [UInt8]
        var encodedReference: [UInt8]
        /// The value's bytes when it is all ASCII digits (it may stand as a JSON number).
        var digits: [UInt8]?
        var isWholeValue: Bool
    }

    private let secrets: [Prepared]
    /// Bytes a spelling of some secret may start with.
    private let starts: [Bool]

    /// Whether there is nothing to redact.
    var isEmpty: Bool { secrets.isEmpty }

    /// A redactor for `secrets`; empty values are ignored, and longer ones are tried first (a secret
    /// that holds another is replaced whole).
    init(_ secrets: [Secret]) {
        var starts = [Bool](repeating: false, count: 256)
        var prepared: [Prepared] = []
        for secret in secrets where !secret.value.isEmpty {
            let scalars = secret.value.unicodeScalars.map { ($0.value, Array(String($0).utf8)) }
            starts[Int(scalars[0].1[0])] = true
            let digits = secret.value.utf8.allSatisfy { (48...57).contains($0) } ? Array(secret.value.utf8) : nil
            prepared.append(Prepared(scalars: scalars, reference: Array(secret.reference.utf8),
                                     encodedReference: Array(Self.referenceInURL(secret.reference).utf8), digits: digits,
                                     isWholeValue: secret.isWholeValue))
        }
        if !prepared.isEmpty {
            for byte in [UInt8(ascii: "%"), UInt8(ascii: "\\"), UInt8(ascii: "+")] { starts[Int(byte)] = true }
        }
        self.secrets = prepared.sorted { $0.scalars.count > $1.scalars.count }
        self.starts = starts
    }

    // MARK: - Text, URLs, responses, errors

    /// `text` with every spelling of a secret replaced by its reference (percent-encoded where the
    /// echo was, or everywhere when `inURL`).
    func redact(_ text: String, inURL: Bool = false) -> String {
        guard !secrets.isEmpty else { return text }
        var text = text
        let replaced: [UInt8]? = text.withUTF8 { bytes in
            guard firstMatch(in: bytes) != nil else { return nil }
            return rewrite(bytes, inURL: inURL)
        }
        return replaced.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// `response` with its secrets taken out of headers, body and URL.
    func redact(_ response: HTTPResponse) -> HTTPResponse {
        guard !secrets.isEmpty else { return response }
        var redacted = response
        let url = redact(response.url.absoluteString, inURL: true)
        if url != response.url.absoluteString { redacted.url = URL(string: url) ?? response.url }
        for (name, value) in response.headers { redacted.headers[name] = redact(value) }
        redacted.body = redact(body: response.body)
        return redacted
    }

    /// `body` with its secrets taken out; the same bytes when it holds none. Valid JSON stays valid.
    func redact(body: Data) -> Data {
        guard !secrets.isEmpty, !body.isEmpty else { return body }
        let found = body.withUnsafeBytes { raw in firstMatch(in: raw.bindMemory(to: UInt8.self)) != nil }
        guard found else { return body }
        // Only bodies that hold a secret pay for a JSON check.
        let isJSON = (try? JSONDocument(body)) != nil
        return body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Data(isJSON ? rewriteJSON(bytes) : rewrite(bytes, inURL: false))
        }
    }

    /// `error` with its secrets taken out of every text it carries (a URL in a transport message...).
    func redact(_ error: RiffleError) -> RiffleError {
        guard !secrets.isEmpty else { return error }
        return error.mappingText { redact($0) }
    }

    // MARK: - Matching

    /// Where the first spelling of a secret starts in `bytes`, if anywhere.
    private func firstMatch(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < bytes.count {
            if starts[Int(bytes[i])], secrets.contains(where: { match($0, in: bytes, at: i, inJSONString: false) != nil }) {
                return i
            }
            i &+= 1
        }
        return nil
    }

    /// The end of a spelling of `secret` starting at `start`, and whether any of it was percent-encoded.
    /// - Parameter inJSONString: inside a JSON string's text, where a bare `"` ends the string.
    private func match(_ secret: Prepared, in t: UnsafeBufferPointer<UInt8>, at start: Int, inJSONString: Bool) -> (end: Int, encoded: Bool)? {
        var j = start
        var encoded = false
        scalars: for scalar in secret.scalars {
            guard j < t.count else { return nil }
            // JSON escapes: `\/`, `\"`, `\n`..., `\uXXXX` (a pair of them beyond the BMP).
            if t[j] == UInt8(ascii: "\\"), let (value, length) = Self.jsonEscape(t, at: j) {
                if value == scalar.value { j &+= length; continue scalars }
                if scalar.value != UInt32(UInt8(ascii: "\\")) { return nil }
            }
            if scalar.value == 0x20, t[j] == UInt8(ascii: "+") { j &+= 1; continue }
            // Raw or percent-encoded, byte by byte, in any mix and either case.
            for byte in scalar.utf8 {
                guard j < t.count else { return nil }
                // Inside a JSON string a bare quote ends it and a bare backslash starts an escape.
                if byte != UInt8(ascii: "%"), t[j] == byte, !(inJSONString && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\"))) {
                    j &+= 1
                } else if t[j] == UInt8(ascii: "%"), j &+ 2 < t.count, let high = Self.hex(t[j &+ 1]), let low = Self.hex(t[j &+ 2]),
                          high << 4 | low == byte {
                    j &+= 3
                    encoded = true
                } else if byte == UInt8(ascii: "%"), t[j] == byte {
                    j &+= 1
                } else {
                    return nil
                }
            }
        }
        if secret.isWholeValue, j < t.count, Self.continuesValue(t, at: j) { return nil }
        return (j, encoded)
    }

    /// Whether the byte at `i` (raw or percent-encoded) goes on with a query value: a letter, a digit,
    /// `-._~+`, or `%` not followed by two hex digits.
    private static func continuesValue(_ t: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        var byte = t[i]
        if byte == UInt8(ascii: "%") {
            guard i &+ 2 < t.count, let high = hex(t[i &+ 1]), let low = hex(t[i &+ 2]) else { return true }
            byte = high << 4 | low
        }
        return (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            || byte == UInt8(ascii: "+")
    }

    /// Rewrites every spelling of a secret, anywhere (text that is not JSON: a header, an HTML page, a message).
    private func rewrite(_ t: UnsafeBufferPointer<UInt8>, inURL: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(t.count)
        var i = 0
        outer: while i < t.count {
            if starts[Int(t[i])] {
                for secret in secrets {
                    if let (end, encoded) = match(secret, in: t, at: i, inJSONString: false) {
                        out += inURL || encoded ? secret.encodedReference : secret.reference
                        i = end
                        continue outer
                    }
                }
            }
            out.append(t[i])
            i &+= 1
        }
        return out
    }

    /// Rewrites spellings of a secret inside the strings of valid JSON `t` (starting only where an
    /// escape does not), and numbers that are a secret whole; the rest stays byte for byte.
    private func rewriteJSON(_ t: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(t.count)
        var i = 0
        var inString = false
        outer: while i < t.count {
            let byte = t[i]
            if inString {
                if byte == UInt8(ascii: "\"") {
                    inString = false
                } else {
                    if starts[Int(byte)] {
                        for secret in secrets {
                            if let (end, encoded) = match(secret, in: t, at: i, inJSONString: true) {
                                out += Self.jsonText(encoded ? secret.encodedReference : secret.reference)
                                i = end
                                continue outer
                            }
                        }
                    }
                    if byte == UInt8(ascii: "\\") {
                        // A whole escape at once: a match never starts inside one.
                        let length = Self.jsonEscape(t, at: i)?.length ?? 2
                        let end = min(t.count, i &+ length)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: t[i..<end]))
                        i = end
                        continue
                    }
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "-") || (48...57).contains(byte) {
                var end = i &+ 1
                while end < t.count, Self.isNumberByte(t[end]) { end &+= 1 }
                let number = UnsafeBufferPointer(rebasing: t[i..<end])
                if let secret = secrets.first(where: { $0.digits.map { $0.elementsEqual(number) } ?? false }) {
                    out.append(UInt8(ascii: "\""))
                    out += Self.jsonText(secret.reference)
                    out.append(UInt8(ascii: "\""))
                } else {
                    out.append(contentsOf: number)
                }
                i = end
                continue
            }
            out.append(byte)
            i &+= 1
        }
        return out
    }

    // MARK: - Pieces

    private static func isNumberByte(_ b: UInt8) -> Bool {
        (48...57).contains(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
            || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
    }

    /// The scalar a JSON escape at `i` stands for and its length in bytes; nil when there is none.
    private static func jsonEscape(_ t: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: UInt32, length: Int)? {
        guard i &+ 1 < t.count, t[i] == UInt8(ascii: "\\") else { return nil }
        switch t[i &+ 1] {
        case UInt8(ascii: "\""): return (0x22, 2)
        case UInt8(ascii: "\\"): return (0x5C, 2)
        case UInt8(ascii: "/"): return (0x2F, 2)
        case UInt8(ascii: "b"): return (0x08, 2)
        case UInt8(ascii: "f"): return (0x0C, 2)
        case UInt8(ascii: "n"): return (0x0A, 2)
        case UInt8(ascii: "r"): return (0x0D, 2)
        case UInt8(ascii: "t"): return (0x09, 2)
        case UInt8(ascii: "u"):
            guard let high = hex4(t, at: i &+ 2) else { return nil }
            if (0xD800..<0xDC00).contains(high), i &+ 11 < t.count, t[i &+ 6] == UInt8(ascii: "\\"), t[i &+ 7] == UInt8(ascii: "u"),
               let low = hex4(t, at: i &+ 8), (0xDC00..<0xE000).contains(low) {
                return (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), 12)
            }
            return (high, 6)
        default: return nil
        }
    }

    private static func hex4(_ t: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32? {
        guard i &+ 3 < t.count else { return nil }
        var value: UInt32 = 0
        for k in i..<(i &+ 4) {
            guard let digit = hex(t[k]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b &- 48
        case 65...70: b &- 55
        case 97...102: b &- 87
        default: nil
        }
    }

    /// `text` as the inside of a JSON string.
    private static func jsonText(_ text: [UInt8]) -> [UInt8] {
        var quoted = ""
        JSONWriter.writeString(String(decoding: text, as: UTF8.self), into: &quoted)
        return Array(quoted.utf8.dropFirst().dropLast())
    }

    /// RFC 3986's unreserved characters are left; everything else is percent-encoded.
    static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// `reference` as it stands where a URL or a percent-encoded echo holds it: `${NAME}` encoded
    /// (braces cannot stand in a URL), the `*` of `***` kept, since a URL may hold it as it is and a
    /// reader should see the mark riffle shows everywhere else.
    static func referenceInURL(_ reference: String) -> String {
        reference.addingPercentEncoding(withAllowedCharacters: unreservedAndStar) ?? reference
    }

    private static let unreservedAndStar = unreserved.union(CharacterSet(charactersIn: "*"))

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
