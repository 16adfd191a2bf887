/// A link from a server, made into one word of printable ASCII that means the same URL: what `o`
/// hands to a browser command and what `y` copies.
///
/// A link is data, and data from a server may be built to act when it lands somewhere that reads
/// text as commands: a shell line someone wrapped around `%s`, a paste into a terminal. So every
/// byte that is not plainly part of the URL is percent-encoded, part by part, keeping only the
/// characters that are structure in that part (RFC 3986's unreserved set and the delimiters listed
/// below); the rest is decoded to the same characters by any server (paths and form-encoded queries
/// are percent-decoded) and by browsers (which percent-decode hosts too):
///
/// | part | kept as it is (besides `A-Z a-z 0-9 - . _ ~` and `%XX`) |
/// |---|---|
/// | user-info | `:` |
/// | host | nothing (an IP literal keeps `[ ] :`); the port keeps its digits |
/// | path | `/ : @ = + ,` |
/// | query | `& = +` (its structure; `+` is a space in a form) |
/// | fragment | `/ ? : @ = + , & !` |
///
/// Everything else (controls, spaces, `$ ( ) ; ' " \` < > | * ? { } [ ] ^ #`, non-ASCII) becomes
/// `%XX`, so a shell reads the link as one word: no substitution, no redirection, no separator, no
/// quote. The one separator a shell sees is the `&` a query needs; what follows it is made inert
/// too: `name=value` is a shell assignment (which runs nothing), and any other piece gets its first
/// character other than `=` and `+` (and every `/`) percent-encoded, so it can only name a program
/// starting with `%`.
/// Tabs and line breaks are dropped and the ends trimmed, as browsers do before reading a link.
///
/// One exception to the table: a query value that is riffle's mark for a key it hid, `***` (or
/// `%2A%2A%2A`), is written `***`, so a link reads `apiKey=***` as every listing does. A shell
/// expands no pattern in an assignment (`name=***` after an `&`), the first piece holds a `/`, so
/// it names folders of its own (`https:/host/...`), and any other piece starts with `%`.
///
/// Encoding is idempotent: an inert link comes back unchanged.
package enum InertLink {
    /// `link` as one inert word of printable ASCII (see the type's table).
    package static func encode(_ link: String) -> String {
        var bytes = Array(link.utf8)
        // WHATWG URL parsing, step one: tabs and newlines removed anywhere, C0 and spaces trimmed.
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        let start = bytes.firstIndex { $0 > 0x20 } ?? bytes.endIndex
        let input = bytes[start...]

        var out: [UInt8] = []
        out.reserveCapacity(input.count + 16)
        var rest = input[...]
        if let colon = schemeEnd(rest) {
            out += rest[..<colon]
            out.append(0x3A)
            rest = rest[(colon + 1)...]
        }
        if rest.starts(with: [0x2F, 0x2F]) {
            out += [0x2F, 0x2F]
            rest = rest.dropFirst(2)
            let end = rest.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
            authority(rest[..<end], into: &out)
            rest = rest[end...]
        }
        let pathEnd = rest.firstIndex { $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
        append(rest[..<pathEnd], keeping: path, into: &out)
        rest = rest[pathEnd...]
        if rest.first == 0x3F {
            out.append(0x3F)
            rest = rest.dropFirst()
            let queryEnd = rest.firstIndex(of: 0x23) ?? rest.endIndex
            pieces(rest[..<queryEnd], keeping: query, isQuery: true, into: &out)
            rest = rest[queryEnd...]
        }
        if rest.first == 0x23 {
            out.append(0x23)
            pieces(rest.dropFirst(), keeping: fragment, isQuery: false, into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    // The characters kept in each part besides the unreserved ones and `%XX` (see the table above).
    private static let userInfo = Set(":".utf8)
    private static let path = Set("/:@=+,".utf8)
    private static let query = Set("&=+".utf8)
    private static let fragment = Set("/?:@=+,&!".utf8)

    /// The index of the `:` ending a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`), if any.
    private static func schemeEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for index in bytes.indices.dropFirst() {
            let byte = bytes[index]
            if byte == 0x3A { return index }
            guard isLetter(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E else { return nil }
        }
        return nil
    }

    /// `user:password@host:port`, each part with its own kept set. Hosts are percent-decoded by
    /// browsers, so an encoded byte there names the same host (and a host that needs one is no DNS
    /// name anyway).
    private static func authority(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        var hostPort = bytes
        if let at = bytes.lastIndex(of: 0x40) {
            append(bytes[..<at], keeping: userInfo, into: &out)
            out.append(0x40)
            hostPort = bytes[(at + 1)...]
        }
        var host = hostPort
        var port: ArraySlice<UInt8>?
        if hostPort.first == 0x5B, let close = hostPort.firstIndex(of: 0x5D) {
            host = hostPort[...close]
            if close + 1 < hostPort.endIndex { port = hostPort[(close + 1)...] }
            append(host, keeping: Set("[]:".utf8), into: &out)
        } else {
            if let colon = hostPort.lastIndex(of: 0x3A) {
                host = hostPort[..<colon]
                port = hostPort[colon...]
            }
            append(host, keeping: [], into: &out)
        }
        if let port, port.first == 0x3A {
            out.append(0x3A)
            append(port.dropFirst(), keeping: [], into: &out)
        } else if let port {
            append(port, keeping: [], into: &out)
        }
    }

    /// A query or fragment, piece by piece between its `&`s: a piece after an `&` starts a command for
    /// a shell, so unless it is an assignment (`name=...`) its first character that is not `=` or `+`
    /// (which are structure) is encoded, and its `/`s, so the command can only name a program whose name
    /// starts with `%` (a form decoder reads the same name and value). A piece where that character is
    /// a `%XX` already is left as it is, so encoding twice changes nothing.
    private static func pieces(_ bytes: ArraySlice<UInt8>, keeping kept: Set<UInt8>, isQuery: Bool, into out: inout [UInt8]) {
        for (number, piece) in bytes.split(separator: 0x26, omittingEmptySubsequences: false).enumerated() {
            if number > 0 { out.append(0x26) }
            var encoded: [UInt8] = []
            if isQuery, let equals = piece.firstIndex(of: 0x3D), equals > piece.startIndex, isHiddenMark(piece[(equals + 1)...]) {
                append(piece[...equals], keeping: kept, into: &encoded)
                encoded += hiddenMark
            } else {
                append(piece, keeping: kept, into: &encoded)
            }
            guard number > 0, !isAssignment(encoded), let lead = encoded.firstIndex(where: { $0 != 0x3D && $0 != 0x2B }),
                  encoded[lead] != 0x25 else {
                out += encoded
                continue
            }
            for (index, byte) in encoded.enumerated() {
                if index == lead || byte == 0x2F { out += percent(byte) } else { out.append(byte) }
            }
        }
    }

    /// `***`: what stands for a key riffle hid (`Feed.hiddenQueryValue`).
    private static let hiddenMark = Array("***".utf8)

    /// Whether `value` is the mark of a hidden key, as written or percent-encoded in either case.
    private static func isHiddenMark(_ value: ArraySlice<UInt8>) -> Bool {
        value.elementsEqual(hiddenMark) || String(decoding: value, as: UTF8.self).lowercased() == "%2a%2a%2a"
    }

    /// Whether `word` is a shell assignment: a name (`[A-Za-z_][A-Za-z0-9_]*`) then `=`.
    private static func isAssignment(_ word: [UInt8]) -> Bool {
        guard let equals = word.firstIndex(of: 0x3D), equals > 0, !isDigit(word[0]) else { return false }
        return word[..<equals].allSatisfy { isLetter($0) || isDigit($0) || $0 == 0x5F }
    }

    /// Appends `bytes`, percent-encoding every byte that is neither unreserved, nor in `kept`, nor part
    /// of a well-formed `%XX`.
    private static func append(_ bytes: ArraySlice<UInt8>, keeping kept: Set<UInt8>, into out: inout [UInt8]) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x25, index + 2 < bytes.endIndex, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                out += bytes[index...(index + 2)]
                index += 3
                continue
            }
            if isUnreserved(byte) || kept.contains(byte) { out.append(byte) } else { out += percent(byte) }
            index += 1
        }
    }

    private static func percent(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return [0x25, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
}
