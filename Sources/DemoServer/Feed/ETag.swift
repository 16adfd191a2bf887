import Foundation

/// Strong entity tags derived from the body, so an unchanged page keeps its tag across server restarts.
enum ETag {
    /// `"<16 hex digits>"`: FNV-1a 64 of `body`, which is enough to tell demo pages apart.
    static func of(_ body: Data) -> String {
        // Over the raw bytes: Data's iterator costs several times the hashing itself.
        let hash = body.withUnsafeBytes { bytes in
            bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether an `If-None-Match` value names `tag`; weak comparison, as RFC 9110 §13.1.2 asks for GET.
    static func matches(ifNoneMatch: String, tag: String) -> Bool {
        let strip = { (text: Substring) -> Substring in
            let trimmed = text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            let value = Substring(String(trimmed))
            return value.hasPrefix("W/") ? value.dropFirst(2) : value
        }
        let wanted = strip(Substring(tag))
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let value = strip(candidate)
            return value == "*" || value == wanted
        }
    }
}
