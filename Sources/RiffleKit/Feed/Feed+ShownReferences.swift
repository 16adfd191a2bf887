/// How a `${NAME}` reference reads where riffle shows it: as it was typed in feeds.json.
///
/// A page URL keeps a query value's reference (`api_key=${API_KEY}`), and a server's echo of a secret
/// becomes the reference (`SecretRedactor`); inside a URL or a percent-encoded echo the reference is
/// percent-encoded (`%24%7BAPI_KEY%7D`, or `$%7BAPI_KEY%7D` as Foundation writes a URL), since braces
/// cannot stand in a URL and the stored page must stay fetchable. Messages and listings show it as
/// `${API_KEY}` again: a person reads the variable's name, never an encoding of it.
extension Feed {
    /// `text` with every percent-encoded spelling of a `${NAME}` or `${NAME:-}` reference (each of
    /// `$`, `{`, `:`, `-` and `}` raw or `%XX` in either case; NAME letters, digits and `_`, not
    /// starting with a digit) written `${NAME}` (`${NAME:-}`). Anything else is left as it is.
    ///
    /// `Feed.showingReferences("HTTP 401: bad key in /a?k=%24%7BAPI_KEY%7D")` is
    /// `"HTTP 401: bad key in /a?k=${API_KEY}"`.
    package static func showingReferences(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var changed = false
        while i < bytes.count {
            if let (end, name, optional) = encodedReference(bytes, at: i) {
                out += Array("${".utf8) + name + Array((optional ? ":-}" : "}").utf8)
                i = end
                changed = true
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    /// A reference starting at `start` with at least one of its marks percent-encoded: where it
    /// ends, its name and whether it is `${NAME:-}`.
    private static func encodedReference(_ t: [UInt8], at start: Int) -> (end: Int, name: [UInt8], optional: Bool)? {
        var i = start
        var encoded = false
        /// Reads `mark` raw or as `%XX` at `i`.
        func read(_ mark: UInt8) -> Bool {
            if i < t.count, t[i] == mark { i += 1; return true }
            guard i + 2 < t.count, t[i] == UInt8(ascii: "%"), let high = hex(t[i + 1]), let low = hex(t[i + 2]),
                  high << 4 | low == mark else { return false }
            i += 3
            encoded = true
            return true
        }
        guard read(UInt8(ascii: "$")), read(UInt8(ascii: "{")) else { return nil }
        let nameStart = i
        while i < t.count, isNameByte(t[i], first: i == nameStart) { i += 1 }
        guard i > nameStart else { return nil }
        let name = Array(t[nameStart..<i])
        let beforeSuffix = (i, encoded)
        let optional = read(UInt8(ascii: ":")) && read(UInt8(ascii: "-"))
        if !optional { (i, encoded) = beforeSuffix }
        // A reference written out already needs no change.
        guard read(UInt8(ascii: "}")), encoded else { return nil }
        return (i, name, optional)
    }

    private static func isNameByte(_ b: UInt8, first: Bool) -> Bool {
        (65...90).contains(b) || (97...122).contains(b) || b == UInt8(ascii: "_") || (!first && (48...57).contains(b))
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }
}
